package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.ncclharness.calibration.measure.Collective;

/** A {@link Collective} stored by its nccl-tests name ({@code all_reduce}), as calibration reports always have. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@JacksonAnnotationsInside
@JsonSerialize(converter = CollectiveName.ToName.class)
@JsonDeserialize(converter = CollectiveName.FromName.class)
public @interface CollectiveName {

    /** The collective's nccl-tests name. */
    final class ToName extends StdConverter<Collective, String> {
        @Override
        public String convert(Collective c) {
            return c.testName();
        }
    }

    /** The collective of an nccl-tests name. */
    final class FromName extends StdConverter<String, Collective> {
        @Override
        public Collective convert(String name) {
            return Collective.byName(name).orElseThrow(() -> new IllegalArgumentException("unknown collective "
                    + name));
        }
    }
}
