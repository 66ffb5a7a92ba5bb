package org.ccl4j.cli;

import java.util.ArrayList;
import java.util.List;

/** The value lists of the physics commands: FROM:TO:STEP ranges, comma lists, 2^k sizes. */
final class Grids {
    private Grids() {
    }

    /** FROM:TO:STEP (both ends included) or a comma-separated list of numbers. */
    static List<Double> values(String option, String text) {
        List<Double> values = new ArrayList<>();
        try {
            String[] range = text.split(":");
            if (range.length == 3) {
                double from = Double.parseDouble(range[0]);
                double to = Double.parseDouble(range[1]);
                double step = Double.parseDouble(range[2]);
                if (!(step > 0) || to < from) {
                    throw new UsageException("--" + option + " FROM:TO:STEP needs FROM <= TO and STEP > 0, got " + text);
                }
                long count = Math.round((to - from) / step) + 1;
                if (count > 100_000) {
                    throw new UsageException("--" + option + " has " + count + " values, more than 100000");
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
            throw new UsageException("--" + option + " needs FROM:TO:STEP or a comma list of numbers, got '" + text + "'");
        }
    }

    /** A comma list of positive integers, each written out or as 2^k. */
    static List<Long> sizes(String option, String text) {
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
                throw new UsageException("--" + option + " needs positive integers (or 2^k), got '" + s + "'");
            }
        }
        return sizes;
    }
}
