package org.ncclharness.calibration.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonNamesTest {

    /** The names whose words are hardest to find again: units, NCCL's protocols, one-letter words. */
    @ParameterizedTest
    @CsvSource({
        "busBwGBps, bus_bw_gbps",
        "alphaLL128Us, alpha_ll128_us",
        "alphaLLUs, alpha_ll_us",
        "llLinkLatencyUs, ll_link_latency_us",
        "ll128Efficiency, ll128_efficiency",
        "uR, u_r",
        "tSwUs, t_sw_us",
        "generalizedCrossValidationPct, generalized_cross_validation_pct",
    })
    void aJavaNameBecomesNcclTestsStyleAndComesBack(String java, String snake) {
        assertThat(JsonNames.snake(java)).isEqualTo(snake);
        assertThat(JsonNames.camel(snake)).isEqualTo(java);
    }

    /** Keys that are data, not names of fields: a model, a size band, a family, an environment variable. */
    @ParameterizedTest
    @CsvSource({"A", "B+beta", "< 1 MiB", "flat-ring", "NCCL_ALGO", "envelope", "schema"})
    void aKeyThatIsDataStaysAsItIs(String key) {
        assertThat(JsonNames.snake(key)).isEqualTo(key);
        assertThat(JsonNames.camel(key)).isEqualTo(key);
    }

    @Test
    void everyDepthIsRenamedAndValuesAreNot() throws Exception {
        ObjectMapper m = new ObjectMapper();
        var doc = m.readTree("{\"seedUr\":{\"busBwGBps\":[{\"betaEffGBps\":1}],\"kind\":\"busBwGBps\"},\"A\":2}");
        assertThat(JsonNames.toSnake(doc).toString())
                .isEqualTo("{\"seed_ur\":{\"bus_bw_gbps\":[{\"beta_eff_gbps\":1}],\"kind\":\"busBwGBps\"},\"A\":2}");
        assertThat(JsonNames.toCamel(JsonNames.toSnake(doc))).isEqualTo(doc);
    }
}
