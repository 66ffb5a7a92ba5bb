package org.ccl4j.cli;

import java.math.BigDecimal;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The CLI's JSON, built as Jackson trees and written by Jackson on one line. Objects keep their
 * keys in insertion order. Measured values keep the fixed number of decimals the CLI has always
 * printed ({@code "mean":2.0000}), as JSON numbers; NaN and infinities, which JSON cannot hold,
 * become {@code null}.
 */
final class Json {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;  // keeps a BigDecimal's scale (trailing zeros) as given
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /** {@code value} with 4 decimals, the CLI's default for times and statistics. */
    static JsonNode number(double value) {
        return fixed(value, 4);
    }

    /** {@code value} with {@code decimals} decimals (rounded as {@code %.Nf} does), or null when not finite. */
    static JsonNode fixed(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return NODES.nullNode();
        }
        // the text of %.Nf, so that the digits are exactly those the CLI printed before
        return NODES.numberNode(new BigDecimal(String.format(Locale.ROOT, "%." + decimals + "f", value)));
    }

    /** The one-line JSON text of {@code node}. */
    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e); // trees of plain nodes always can
        }
    }
}
