package org.ncclharness.harness.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.SourceKind;

class ChartFileTest {

    @TempDir
    Path dir;

    @Test
    void drawsPointsModelsAndResiduals() throws Exception {
        var sweep = TestSweeps.allReduce("h100_synthetic", SourceKind.DATASET, 16, 1024, 8L << 30,
                TestSweeps.alphaBeta(16, 40, 360));
        var s = FigureSeries.of(sweep)
                .withModels(List.of(new ModelCurve("single-tier α-β", TestSweeps.alphaBeta(16, 50, 340)),
                        new ModelCurve("two-tier", TestSweeps.alphaBeta(16, 30, 380))))
                .withLimit(new PhysicalLimit("NVLink4", 450));
        Path png = dir.resolve("a.png");
        ChartFile.write(Figure.of(List.of(s)).withResiduals(true), png, 1000, 700, false);
        java.nio.file.Files.copy(png, Path.of("/tmp/plot-a.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path svg = dir.resolve("a.svg");
        ChartFile.write(Figure.of(List.of(s)).withResiduals(true), svg, 1000, 700, false);
        java.nio.file.Files.copy(svg, Path.of("/tmp/plot-a.svg"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(png).exists();
    }
}
