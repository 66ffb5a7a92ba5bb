package org.ccl4j.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The value lists of the physics commands, as option types: FROM:TO:STEP ranges or comma lists of
 * numbers ({@code --p}, {@code --T}), comma lists of sizes written out or as 2^k ({@code --sizes},
 * {@code --L}). A list is one option value, so each is a record that picocli converts as a whole.
 */
final class Grids {
    private Grids() {
    }

    /** {@code --p 0.6:0.7:0.01}, {@code --T 2.2,2.27}. */
    record Values(List<Double> list) {
    }

    /** {@code --sizes 2^12,2^14}, {@code --L 16,32}. */
    record Sizes(List<Long> list) {
    }

    /** FROM:TO:STEP (both ends included) or a comma-separated list of numbers. */
    static final class ValuesConverter implements ITypeConverter<Values> {
        @Override
        public Values convert(String text) {
            return new Values(values(text));
        }
    }

    /** A comma list of positive integers, each written out or as 2^k. */
    static final class SizesConverter implements ITypeConverter<Sizes> {
        @Override
        public Sizes convert(String text) {
            return new Sizes(sizes(text));
        }
    }

    static List<Double> values(String text) {
        List<Double> values = new ArrayList<>();
        try {
            String[] range = text.split(":");
            if (range.length == 3) {
                double from = Double.parseDouble(range[0]);
                double to = Double.parseDouble(range[1]);
                double step = Double.parseDouble(range[2]);
                if (!(step > 0) || to < from) {
                    throw new TypeConversionException("FROM:TO:STEP needs FROM <= TO and STEP > 0, got '" + text + "'");
                }
                long count = Math.round((to - from) / step) + 1;
                if (count > 100_000) {
                    throw new TypeConversionException("'" + text + "' has " + count + " values, more than 100000");
                }
                for (long i = 0; i < count; i++) {
                    values.add(Math.round((from + i * step) * 1e9) / 1e9);
                }
                return values;
            }
            for (String v : text.split(",")) {
                values.add(Double.parseDouble(v.trim()));
            }
            return values;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expected FROM:TO:STEP or a comma list of numbers, got '" + text + "'");
        }
    }

    static List<Long> sizes(String text) {
        List<Long> sizes = new ArrayList<>();
        for (String v : text.split(",")) {
            String s = v.trim();
            try {
                long n = s.startsWith("2^") ? 1L << Integer.parseInt(s.substring(2)) : Long.parseLong(s);
                if (n < 1) {
                    throw new NumberFormatException();
                }
                sizes.add(n);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("expected positive integers (or 2^k), got '" + s + "'");
            }
        }
        return sizes;
    }
}
