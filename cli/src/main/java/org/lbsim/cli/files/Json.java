package org.lbsim.cli.files;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Deterministic JSON text with Jackson: maps in their own order, two-space indentation, {@code "key": value},
 * '\n' line ends on every platform, {@link BigDecimal} written as plain decimals ({@code 4323328.000}).
 * Callers round doubles with {@link #decimal}, so a file never depends on how a double prints.
 */
public final class Json {
    private static final DefaultIndenter INDENT = new DefaultIndenter("  ", "\n");
    private static final ObjectWriter WRITER = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
                    .withObjectIndenter(INDENT)
                    .withArrayIndenter(INDENT));

    private Json() {
    }

    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A double rounded half-even to a fixed number of decimals from its exact binary value; null for NaN/infinity. */
    public static BigDecimal decimal(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return null;
        }
        return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN);
    }
}
