package org.ccl4j.cli;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A size in bytes as options take it: a whole number, optionally with K, M, G or T (powers of
 * 1024) and an optional B or iB: 4096, 512M, 4G, 1.5GiB.
 */
final class ByteSizes implements ITypeConverter<Long> {
    private static final String UNITS = "KMGT";

    @Override
    public Long convert(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        if (t.endsWith("IB")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        int unit = t.isEmpty() ? -1 : UNITS.indexOf(t.charAt(t.length() - 1));
        String number = unit >= 0 ? t.substring(0, t.length() - 1).strip() : t;
        try {
            double value = Double.parseDouble(number);
            double bytes = value * Math.pow(1024, unit + 1);
            if (!(bytes >= 1) || bytes > Long.MAX_VALUE || !number.matches("[0-9]+(\\.[0-9]+)?")) {
                throw new NumberFormatException();
            }
            return (long) bytes;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is not a size: expected bytes, or a number with K, M,"
                    + " G or T (e.g. 512M, 4G)");
        }
    }
}
