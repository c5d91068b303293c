package org.ncclharness.calibration.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A damaged JSON value is named by its path and the kind of value that belongs there, never by a Java type. */
class JsonProblemTest {

    enum Colour { RED }

    record Inner(Integer size, Colour colour, List<String> names) {
        Inner {
            if (size != null && size < 0) {
                throw new IllegalArgumentException("size must not be negative");
            }
        }
    }

    record Outer(Inner inner) {
    }

    private static String problem(String json) {
        JsonProcessingException e = catchThrowableOfType(() -> new ObjectMapper().readValue(json, Outer.class),
                JsonProcessingException.class);
        return JsonProblem.describe(e);
    }

    @Test
    void aValueOfTheWrongKindIsNamedByItsPathAndTheKindThatBelongs() {
        assertThat(problem("{\"inner\": {\"size\": \"x\"}}"))
                .isEqualTo("inner.size holds 'x' where a whole number belongs");
        assertThat(problem("{\"inner\": {\"size\": []}}")).isEqualTo("inner.size holds a value where a whole number"
                + " belongs");
        assertThat(problem("{\"inner\": {\"colour\": \"BLUE\"}}"))
                .isEqualTo("inner.colour holds 'BLUE' where one of the names this field takes belongs");
        assertThat(problem("{\"inner\": {\"names\": {}}}")).isEqualTo("inner.names holds a value where a list belongs");
        assertThat(problem("{\"inner\": \"x\"}")).startsWith("inner ").endsWith(" where an object belongs");
    }

    @Test
    void aRecordsOwnRefusalIsKeptAndSyntaxIsTheParsersWords() {
        assertThat(problem("{\"inner\": {\"size\": -1}}")).isEqualTo("inner: size must not be negative");
        assertThat(problem("{\"inner\": ")).doesNotContain("com.fasterxml", "java.", "Exception");
    }
}
