package org.ncclharness.calibration.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What is wrong with a JSON value, in the file's own terms (README, "Exit codes": no message names a Java type or
 * library): the field's path as the file spells it and the kind of value that belongs there, read from the
 * exception's structure, never the JSON library's text, which names the Java class it was filling.
 */
public final class JsonProblem {

    private JsonProblem() {
    }

    /** {@code hardware.domainSize holds "x" where a whole number belongs}. */
    public static String describe(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException m) || m.getPath().isEmpty()) {
            // the syntax itself (a missing comma, a stray token): the parser's words name tokens, not types
            return e instanceof JsonMappingException ? "a value is not of the kind that belongs there"
                    : Echo.quote(String.valueOf(e.getOriginalMessage()));
        }
        String where = path(m);
        if (e instanceof ValueInstantiationException v && v.getCause() != null
                && v.getCause() instanceof IllegalArgumentException refusal && refusal.getMessage() != null) {
            return where + ": " + refusal.getMessage(); // a record's own refusal, in the project's words
        }
        String held = e instanceof InvalidFormatException f && f.getValue() != null
                ? " holds " + Echo.quote(String.valueOf(f.getValue())) : " holds a value";
        if (e instanceof MismatchedInputException mi && mi.getTargetType() != null) {
            return where + held + " where " + kind(mi.getTargetType()) + " belongs";
        }
        return where + " is missing or not valid";
    }

    /** The field's path as the file spells it: {@code source.diagnosis.findings[0].severity}. */
    private static String path(JsonMappingException m) {
        return m.getPath().stream().map(r -> r.getFieldName() != null ? "." + r.getFieldName()
                : "[" + r.getIndex() + "]").collect(Collectors.joining()).replaceFirst("^\\.", "");
    }

    /** The kind of JSON value a type takes, in words. */
    static String kind(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class || type == BigInteger.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class
                || type == BigDecimal.class || type == Number.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type) || type == char.class || type == Character.class) {
            return "text";
        }
        if (type.isEnum()) {
            return "one of the names this field takes";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object of names and values";
        }
        return "an object";
    }
}
