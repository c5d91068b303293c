package org.ncclharness.harness.datasets;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.DatasetImporter;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.OutputFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code datasets import RAW...}: generates {@code <id>.csv} from raw dataset texts. */
@Command(name = "import", addMethodSubcommands = false,
        description = {"Generate the dataset CSV (one header row, then the rows with both halves) from raw "
                + "dataset texts, every number as published.",
            "The bundled CSVs are made with: java -jar harness.jar datasets import datasets/raw/*.txt "
                + "--out datasets --force"})
public final class DatasetsImportCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(arity = "1..*", paramLabel = "RAW", description = "raw dataset texts (datasets/raw/*.txt)")
    List<Path> raws;

    @Option(names = "--out", paramLabel = "DIR", converter = OutputFolder.Converter.class,
            description = "folder for the CSVs (default: the current folder)")
    OutputFolder out = new OutputFolder(Path.of("."));

    @Option(names = "--force", description = "overwrite existing CSVs")
    boolean force;

    @Override
    public Integer call() {
        // the folder is checked before any input is read, and every input is parsed before anything is written:
        // one bad file leaves no CSV behind
        OutputFile.checkFolderWritable(out.path());
        List<DatasetImporter.Imported> imported = raws.stream().map(DatasetImporter::importRaw).toList();
        imported.forEach(i -> OutputFile.checkWritable(out.resolve(i.id() + ".csv"), force));
        for (DatasetImporter.Imported i : imported) {
            OutputFile.write(out.resolve(i.id() + ".csv"), force, o -> o.write(i.csv().getBytes(StandardCharsets.UTF_8)));
            System.out.printf("%s: %d rows -> %s%n", i.id(), i.rows(), out.resolve(i.id() + ".csv"));
        }
        return ExitCode.OK;
    }
}
