package org.ncclharness.calibration.format;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON into records, field by record component, with Jackson's streaming parser alone. The bundled facts a
 * short command reads (the hardware, the catalogue's metadata, NCCL's constants) go through here and not through
 * Jackson's data binding, whose start (its classes, its date format's calendar, a deserializer built per record
 * type) was a third of the CPU time of {@code calibrate ID} and of {@code predict --interconnect} (README,
 * Benchmarks). Strict as those readers were: a field the record does not have is an error, so a fact added to a
 * file but not to the code is not dropped. A missing field is null (0 or false for a primitive). The errors are
 * Jackson's own exception types, path included, so {@link JsonProblem} words them as it words data binding's.
 *
 * <p>Types a component may have: String, int/Integer, long/Long, double/Double, boolean/Boolean, double[], a
 * record, and List or Map (String keys) of those; a component named otherwise in the file carries
 * {@link JsonProperty}.
 */
public final class JsonRecords {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return Shape.of(type);
        }
    };

    private JsonRecords() {
    }

    /** The one JSON value of {@code in}, a record of {@code type}. */
    public static <T> T read(InputStream in, Class<T> type) throws IOException {
        try (JsonParser p = FACTORY.createParser(in)) {
            return root(p, type);
        }
    }

    /** The one JSON value of {@code json}, a record of {@code type}. */
    public static <T> T read(String json, Class<T> type) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            return root(p, type);
        }
    }

    private static <T> T root(JsonParser p, Class<T> type) throws IOException {
        if (p.nextToken() == null) {
            throw MismatchedInputException.from(p, type, "no content");
        }
        return type.cast(value(p, type));
    }

    /** The value at the parser's current token, of {@code type}; the parser is left on the value's last token. */
    private static Object value(JsonParser p, Type type) throws IOException {
        Class<?> raw = raw(type);
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return raw.isPrimitive() ? missing(raw) : null;
        }
        if (raw == String.class) {
            return expect(p, t == JsonToken.VALUE_STRING, raw).getText();
        }
        if (raw == Integer.class || raw == int.class) {
            return expect(p, t == JsonToken.VALUE_NUMBER_INT, raw).getIntValue();
        }
        if (raw == Long.class || raw == long.class) {
            return expect(p, t == JsonToken.VALUE_NUMBER_INT, raw).getLongValue();
        }
        if (raw == Double.class || raw == double.class) {
            return expect(p, t.isNumeric(), raw).getDoubleValue();
        }
        if (raw == Boolean.class || raw == boolean.class) {
            return expect(p, t.isBoolean(), raw).getBooleanValue();
        }
        if (raw == double[].class) {
            List<?> values = list(p, Double.class);
            return values.stream().mapToDouble(v -> (Double) v).toArray();
        }
        if (raw == List.class) {
            return list(p, argument(type, 0));
        }
        if (raw == Map.class) {
            expect(p, t == JsonToken.START_OBJECT, raw);
            return map(p, argument(type, 1));
        }
        if (raw.isRecord()) {
            return SHAPES.get(raw).read(p);
        }
        throw new IllegalArgumentException(raw + " is not a type JsonRecords binds");
    }

    /**
     * An object's fields by name, each of {@code element} (V is the component's declared value type, which
     * {@link #value} returns as such); the parser is on its START_OBJECT.
     */
    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> map(JsonParser p, Type element) throws IOException {
        Map<String, V> out = new LinkedHashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            p.nextToken();
            try {
                out.put(name, (V) value(p, element));
            } catch (JsonMappingException e) {
                throw JsonMappingException.wrapWithPath(e, out, name);
            }
        }
        return out;
    }

    private static List<Object> list(JsonParser p, Type element) throws IOException {
        expect(p, p.currentToken() == JsonToken.START_ARRAY, List.class);
        List<Object> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            try {
                out.add(value(p, element));
            } catch (JsonMappingException e) {
                throw JsonMappingException.wrapWithPath(e, out, out.size());
            }
        }
        return out;
    }

    private static JsonParser expect(JsonParser p, boolean fits, Class<?> type) throws JsonProcessingException {
        if (!fits) {
            throw MismatchedInputException.from(p, type, "expected " + JsonProblem.kind(type) + ", got "
                    + p.currentToken());
        }
        return p;
    }

    private static Class<?> raw(Type type) {
        return type instanceof ParameterizedType pt ? (Class<?>) pt.getRawType() : (Class<?>) type;
    }

    private static Type argument(Type type, int i) {
        if (!(type instanceof ParameterizedType pt)) {
            throw new IllegalArgumentException(type + " has no element type to bind");
        }
        return pt.getActualTypeArguments()[i];
    }

    /** A record type's JSON names, component types and canonical constructor, worked out once per type. */
    private static final class Shape {
        private final Class<?> type;
        private final Map<String, Integer> index;
        private final Type[] types;
        private final Constructor<?> constructor;

        private Shape(Class<?> type, Map<String, Integer> index, Type[] types, Constructor<?> constructor) {
            this.type = type;
            this.index = index;
            this.types = types;
            this.constructor = constructor;
        }

        static Shape of(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            Map<String, Integer> index = new HashMap<>();
            Type[] types = new Type[components.length];
            Class<?>[] raw = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                JsonProperty named = components[i].getAccessor().getAnnotation(JsonProperty.class);
                index.put(named != null && !named.value().isEmpty() ? named.value() : components[i].getName(), i);
                types[i] = components[i].getGenericType();
                raw[i] = components[i].getType();
            }
            try {
                Constructor<?> c = type.getDeclaredConstructor(raw);
                c.setAccessible(true); // a private record of one file's layout (JointGroups.File)
                return new Shape(type, index, types, c);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(type + " has no canonical constructor", e);
            }
        }

        Object read(JsonParser p) throws IOException {
            expect(p, p.currentToken() == JsonToken.START_OBJECT, type);
            Object[] args = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                args[i] = missing(raw(types[i]));
            }
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                Integer i = index.get(name);
                if (i == null) {
                    // its path already ends in the name
                    throw UnrecognizedPropertyException.from(p, type, name, new ArrayList<Object>(index.keySet()));
                }
                p.nextToken();
                try {
                    args[i] = value(p, types[i]);
                } catch (JsonMappingException e) {
                    throw JsonMappingException.wrapWithPath(e, type, name);
                }
            }
            try {
                return constructor.newInstance(args);
            } catch (InvocationTargetException e) {
                // the record's own refusal: JsonProblem gives its message with the field's path
                throw ValueInstantiationException.from(p, String.valueOf(e.getCause().getMessage()),
                        TypeFactory.defaultInstance().constructType(type), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(type + " cannot be built", e);
            }
        }
    }

    /** The value a missing field takes: 0 or false for a primitive, null for the rest. */
    private static Object missing(Class<?> raw) {
        if (!raw.isPrimitive()) {
            return null;
        }
        if (raw == boolean.class) {
            return Boolean.FALSE;
        }
        if (raw == double.class) {
            return 0.0;
        }
        return raw == long.class ? (Object) 0L : (Object) 0;
    }
}
