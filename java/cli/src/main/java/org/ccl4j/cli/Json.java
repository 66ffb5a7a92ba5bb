package org.ccl4j.cli;

import java.util.Locale;
import java.util.Map;

/** A minimal JSON writer for the CLI's one-object outputs. */
final class Json {
    private final StringBuilder out = new StringBuilder("{");
    private boolean first = true;

    Json put(String key, long value) {
        return raw(key, Long.toString(value));
    }

    Json put(String key, double value) {
        return raw(key, number(value));
    }

    Json put(String key, String value) {
        return raw(key, value == null ? "null" : quote(value));
    }

    Json put(String key, boolean value) {
        return raw(key, Boolean.toString(value));
    }

    Json put(String key, Json value) {
        return raw(key, value.toString());
    }

    Json put(String key, Map<String, Double> numbers) {
        Json o = new Json();
        numbers.forEach(o::put);
        return put(key, o);
    }

    /** Adds a value already written as JSON. */
    Json raw(String key, String json) {
        if (!first) {
            out.append(',');
        }
        first = false;
        out.append(quote(key)).append(':').append(json);
        return this;
    }

    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        return String.format(Locale.ROOT, "%.4f", value);
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public String toString() {
        return out + "}";
    }
}
