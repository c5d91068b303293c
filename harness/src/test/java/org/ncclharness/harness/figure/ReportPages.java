package org.ncclharness.harness.figure;

import java.util.List;
import org.ncclharness.calibration.measure.SourceKind;

/** A report page like the one {@code calibrate --report} writes: two datasets, a table, verdicts, figures. */
final class ReportPages {

    private ReportPages() {
    }

    static ReportPage twoDatasets() {
        var nvlink = TestSweeps.allReduce("h100_allreduce_8gpu_synthetic", SourceKind.DATASET, 8, 1024, 8L << 30,
                TestSweeps.alphaBeta(8, 25, 360));
        var ib = TestSweeps.allReduce("h100_allreduce_16gpu_2node_synthetic", SourceKind.REPLAY, 16, 1024,
                8L << 30, TestSweeps.alphaBeta(16, 60, 45));
        FigureSeries a = FigureSeries.of(nvlink)
                .withModels(List.of(new ModelCurve("single-tier α-β", TestSweeps.alphaBeta(8, 27, 350))))
                .withLimit(new PhysicalLimit("NVLink4", 450));
        FigureSeries b = FigureSeries.of(ib)
                .withModels(List.of(new ModelCurve("two-tier", TestSweeps.alphaBeta(16, 55, 47))))
                .withLimit(new PhysicalLimit("IB NDR", 50));
        return new ReportPage("calibrate: 2 datasets",
                List.of(a.source(), b.source()),
                List.of(new ReportPage.Verdict(ReportPage.Level.PASS, "h100_allreduce_8gpu_synthetic",
                                "RMSPE 3.1 % < 10 %"),
                        new ReportPage.Verdict(ReportPage.Level.WARN, "h100_allreduce_16gpu_2node_synthetic",
                                "replayed, not measured: busbw 45 GB/s is 90 % of β_phys <IB NDR>")),
                List.of(new ReportPage.Table("Fitted parameters",
                        List.of("dataset", "model", "α (µs)", "β (GB/s)", "RMSPE"),
                        List.of(List.of("h100_allreduce_8gpu_synthetic", "single-tier α-β", "27.0", "350.0", "3.1 %"),
                                List.of("h100_allreduce_16gpu_2node_synthetic", "two-tier", "55.0", "47.0",
                                        "6.4 %")))),
                List.of(new ReportPage.Text("calibrate's table, as printed", "# dataset  N\nh100 <8>  8\n")),
                List.of(new ReportPage.ReportFigure("h100_allreduce_8gpu_synthetic", a.source(),
                                Figure.of(List.of(a))),
                        new ReportPage.ReportFigure("h100_allreduce_16gpu_2node_synthetic", b.source(),
                                Figure.of(List.of(b)).withResiduals(true))));
    }
}
