package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;

/**
 * Every kind of model through a report's JSON and back: the text is the one reports have always held (so files
 * written before the configurations were typed read back, and new ones read the same), and the model read back is
 * the one written.
 */
class ModelJsonTest {

    static Stream<Arguments> everyKind() {
        return Stream.of(
                Arguments.of(new SingleTierModel(Collective.ALL_GATHER, 16, 1, LatencyRule.STEP_SUM),
                        "{\"form\":\"single-tier-ring\",\"configuration\":{\"collective\":\"all_gather\",\"ranks\":16,"
                                + "\"hops\":1,\"latencyRule\":\"step-sum\"}}"),
                Arguments.of(new ProtocolEnvelopeModel(Collective.ALL_REDUCE, 8, 2),
                        "{\"form\":\"protocol-envelope\",\"configuration\":{\"collective\":\"all_reduce\",\"ranks\":8,"
                                + "\"hops\":2}}"),
                Arguments.of(new TwoTierCostModel(TwoTierForm.FLAT_RING, new TwoTierConfig(2, 8), 450, 2),
                        "{\"form\":\"two-tier\",\"configuration\":{\"collective\":\"all_reduce\",\"shape\":\"flat-ring\","
                                + "\"domains\":2,\"gpusPerDomain\":8,\"ranks\":16,\"betaNvGBps\":450.0,\"hops\":2}}"),
                Arguments.of(new AlgorithmEnvelopeModel(Collective.ALL_REDUCE, new TwoTierConfig(4, 8), 1),
                        "{\"form\":\"algorithm-envelope\",\"configuration\":{\"collective\":\"all_reduce\",\"domains\":4,"
                                + "\"gpusPerDomain\":8,\"ranks\":32,\"hops\":1}}"),
                Arguments.of(new AlgorithmEnvelopeModel(Collective.ALL_GATHER, new TwoTierConfig(2, 4), 1, true),
                        "{\"form\":\"algorithm-envelope\",\"configuration\":{\"collective\":\"all_gather\",\"domains\":2,"
                                + "\"gpusPerDomain\":4,\"ranks\":8,\"hops\":1,\"ringOnly\":true}}"),
                Arguments.of(new NcclTunerModel(Collective.ALL_REDUCE, 16, 2, 90, "NVLINK", 16, 20, 12.5, "2.26.2"),
                        "{\"form\":\"nccl-tuner\",\"configuration\":{\"collective\":\"all_reduce\",\"ranks\":16,"
                                + "\"nodes\":2,\"sm\":90,\"intraLink\":\"NVLINK\",\"channels\":16,\"bwIntraGBps\":20.0,"
                                + "\"bwInterGBps\":12.5,\"version\":\"2.26.2\"}}"));
    }

    @ParameterizedTest
    @MethodSource("everyKind")
    void aModelIsWrittenAsReportsHoldItAndReadsBackTheSame(CostModel model, String json)
            throws JsonProcessingException {
        ObjectNode node = CalibrationJson.MAPPER.createObjectNode();
        ModelJson.put(node, model);
        assertThat(CalibrationJson.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node))
                .isEqualTo(json);
        CostModel back = ModelJson.read(CalibrationJson.MAPPER.readTree(json));
        assertThat(back).isEqualTo(model);
        assertThat(back.configuration()).isEqualTo(model.configuration());
    }

    @Test
    void aKeyNoConfigurationBindsIsLeftAlone() throws JsonProcessingException {
        assertThat(ModelJson.read(CalibrationJson.MAPPER.readTree("{\"name\":\"envelope\",\"form\":\"protocol-envelope\","
                + "\"configuration\":{\"collective\":\"all_reduce\",\"ranks\":8,\"hops\":2,\"note\":\"older\"},"
                + "\"parameters\":{}}"))).isEqualTo(new ProtocolEnvelopeModel(Collective.ALL_REDUCE, 8, 2));
    }

    @Test
    void anUnknownFormNamesTheKnownOnes() {
        assertThatThrownBy(() -> ModelJson.read(CalibrationJson.MAPPER.readTree(
                "{\"form\":\"three-tier\",\"configuration\":{\"ranks\":8}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown model form three-tier (known: [single-tier-ring, protocol-envelope, two-tier,"
                        + " algorithm-envelope, nccl-tuner])");
    }

    @Test
    void aConfigurationThatIsNotOneOfItsFormSaysWhatIsWrong() {
        assertThatThrownBy(() -> ModelJson.read(CalibrationJson.MAPPER.readTree(
                "{\"form\":\"single-tier-ring\",\"configuration\":{\"ranks\":8,\"hops\":1,\"latencyRule\":\"pipeline\"}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("collective is missing");
        assertThatThrownBy(() -> ModelJson.read(CalibrationJson.MAPPER.readTree(
                "{\"form\":\"protocol-envelope\",\"configuration\":{\"collective\":\"all_shuffle\",\"ranks\":8,"
                        + "\"hops\":1}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown collective all_shuffle");
        assertThatThrownBy(() -> ModelJson.read(CalibrationJson.MAPPER.readTree(
                "{\"form\":\"two-tier\",\"configuration\":{\"shape\":\"hierarchical\",\"domains\":2,"
                        + "\"gpusPerDomain\":8,\"hops\":1}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("betaNvGBps must be above 0, got 0.0");
        assertThatThrownBy(() -> ModelJson.read(CalibrationJson.MAPPER.readTree(
                "{\"form\":\"single-tier-ring\",\"configuration\":{\"collective\":\"all_reduce\",\"ranks\":8,"
                        + "\"latencyRule\":\"pipeline\"}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("hops per step must be at least 1, got 0");
    }
}
