package org.ncclharness.calibration.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.diagnose.NcclLines.Line;
import org.ncclharness.calibration.diagnose.NcclRules.Format;
import org.ncclharness.calibration.diagnose.NcclRules.Level;
import org.ncclharness.calibration.diagnose.NcclRules.Rule;
import org.ncclharness.calibration.measure.Severity;

/**
 * Every row of the diagnosis table against a line printed from each NCCL format string it cites, as the releases
 * that print it would write it (the table keeps each format with its source file and releases, read from
 * github.com/NVIDIA/nccl at tags v2.3.5-5 ... v2.30.7-1), under every prefix a launcher or log collector gives it.
 */
class NcclRulesTest {

    private static final NcclRules TABLE = NcclRules.table();
    private static final Pattern CONVERSION = Pattern.compile("%[-0-9.*]*[lhz]*([a-zA-Z])");

    /** The format printed with the row's values for its {@code %s} conversions, a value of the type for the rest. */
    static String print(String format, List<String> args) {
        Matcher m = CONVERSION.matcher(format);
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (m.find()) {
            boolean text = m.group(1).equals("s");
            String v = text && i < args.size() ? args.get(i) : switch (m.group(1)) {
                case "s" -> "abc";
                case "p" -> "0x7f00";
                case "x" -> "1a";
                case "f" -> "1.0";
                default -> "2";
            };
            i += text ? 1 : 0;
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * NCCL's own prefix as each release writes it (2.3 had no file:line on a WARN, 2.4-2.29 have it, 2.30 adds the
     * function), and what launchers and collectors do to it: Open MPI's tag, a timestamp, a kubectl pod name, a
     * stripped host:pid:tid, a poster's quoting.
     */
    static List<String> printed(String level, String message, String file) {
        String tag = level.equals("WARN") ? file + ":483 NCCL WARN " : "NCCL INFO ";
        return List.of(
                "gpu-node-1:1234:5678 [3] " + tag + message,
                "gpu-node-1:1234:5678 [3] " + (level.equals("WARN") ? file + ":483 (ncclSocketConnect) NCCL WARN "
                        : tag) + message,
                "gpu-node-1:1234:5678 [3] NCCL " + level + " " + message,
                "[1,7]<stderr>:gpu-node-1:1234:5678 [3] " + tag + message,
                "[2026-03-18 11:13:09] gpu-node-1:1234:5678 [3] " + tag + message,
                "2026-03-18T11:13:09.123456789Z stderr F gpu-node-1:1234:5678 [3] " + tag + message,
                ":1234:5678 [3] " + tag + message,
                " [3] NCCL " + level + " " + message,
                "> gpu-node-1:1234:5678 [3] " + tag + message,
                level.equals("WARN") ? file + ":483 WARN " + message : "NCCL INFO " + message);
    }

    static Stream<Arguments> everyRuleFormat() {
        List<Arguments> all = new ArrayList<>();
        for (Rule r : TABLE.rules()) {
            for (Format f : r.formats()) {
                all.add(Arguments.of(r.id(), f));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyRuleFormat")
    void eachRowMatchesTheLinesItsFormatsPrintUnderAnyPrefix(String id, Format format) {
        Rule rule = TABLE.rules().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
        String message = print(format.format(), rule.args());
        if (rule.level() == Level.ANY) {
            String line = rule.carrier().replace("%s", message);
            assertThat(TABLE.match(Level.ANY, line)).as(line).get()
                    .satisfies(m -> assertThat(m.rule().id()).isEqualTo(id))
                    .satisfies(m -> assertThat(m.meaning()).as("its result is in the table").isNotNull());
            return;
        }
        // a rule that reads one source file's WARNs (the CUDA failures of transport/nvls.cc) gets that file's prefix
        String file = rule.source() == null ? "misc/socket.cc" : "transport/nvls.cc";
        assertThat(rule.source() == null || Pattern.compile(rule.source()).matcher(file).find()).isTrue();
        for (String raw : printed(rule.level().name(), message, file)) {
            List<Line> read = NcclLines.of(List.of(raw));
            assertThat(read).as(raw).hasSize(1);
            Line l = read.get(0);
            assertThat(l.warn()).as(raw).isEqualTo(rule.level() == Level.WARN);
            assertThat(l.text()).as(raw).isEqualTo(message.strip());
            if (rule.source() != null && NcclLines.warnSource(l) == null) {
                continue; // a prefix without the file cannot say where NCCL printed it
            }
            if (raw.contains("gpu-node-1:1234")) {
                assertThat(l.host()).as("the host of " + raw).isEqualTo("gpu-node-1");
            }
            Optional<NcclRules.Match> m = TABLE.match(rule.level(), l.text(), NcclLines.warnSource(l));
            assertThat(m).as(raw).isPresent();
            assertThat(m.get().rule().id()).as(raw).isEqualTo(id);
            assertThat(m.get().message()).doesNotContain("{").doesNotContain("?)");
            // the cited format prints this line (%d and %u, or two files' copies, print alike)
            assertThat(rule.citedFor(l.text()).prints(l.text())).as("the format cited for " + raw).isTrue();
        }
    }

    @Test
    void everyRowCitesRealFormatsWithTheirReleasesAndEveryFactMatchesItsOwn() {
        assertThat(TABLE.rules()).extracting(Rule::id).doesNotHaveDuplicates();
        for (Rule r : TABLE.rules()) {
            assertThat(r.formats()).as(r.id()).isNotEmpty();
            assertThat(r.fix()).as(r.id()).isNotBlank();
            for (Format f : r.formats()) {
                assertThat(f.file()).as(r.id()).startsWith("src/");
                assertThat(release(f.since())).as(r.id() + " " + f).isLessThanOrEqualTo(release(f.until()));
                assertThat(release(f.since())).isGreaterThanOrEqualTo(release("2.3.5"));
                assertThat(release(f.until())).isLessThanOrEqualTo(release("2.30.7"));
            }
        }
        for (NcclRules.Fact fact : TABLE.facts()) {
            for (Format f : fact.formats()) {
                assertThat(fact.matches(print(f.format(), fact.args()))).as(fact.id() + " " + f).isTrue();
            }
        }
    }

    private static int release(String v) {
        String[] p = v.split("\\.");
        return Integer.parseInt(p[0]) * 10000 + Integer.parseInt(p[1]) * 100 + Integer.parseInt(p[2]);
    }

    /** The statuses NCCL reports are explained: every verbs completion error, every fatal ncclResult_t. */
    @Test
    void everyStatusNcclReportsHasAMeaningAndAFix() {
        for (int s = 1; s <= 21; s++) {
            assertThat(TABLE.ibvWcStatus()).as("ibv_wc_status " + s).containsKey(String.valueOf(s));
        }
        for (String fatal : List.of("ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
                "ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError")) {
            assertThat(TABLE.result(fatal)).as(fatal).isNotNull()
                    .satisfies(m -> assertThat(m.severity()).isEqualTo(Severity.FAIL));
        }
        assertThat(TABLE.result("7").severity()).as("ncclInProgress is no error").isEqualTo(Severity.INFO);
        assertThat(TABLE.errno().values()).allSatisfy(m -> assertThat(m.fix()).isNotBlank());
    }

    /**
     * The 2.29+ wording ({@code status=transport retry counter exceeded(12)}) means what 2.4's ({@code error 12})
     * did; the finding names the status, the peer, and cites the 2.29+ format.
     */
    @Test
    void aCompletionErrorInTheNewestWordingIsExplainedAndCited() {
        Diagnosis d = Diagnoser.diagnose("new.log", List.of(
                "h1:10:11 [0] transport/net_ib/p2p.cc:688 (ncclIbCompletionEventProcess) NCCL WARN NET/IB: Got"
                        + " completion from peer 10.0.0.2<4711> with status=transport retry counter exceeded(12)"
                        + " opcode=RDMA_WRITE(1) vendor_err=129 localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2"
                        + " hca mlx5_0",
                "h1:10:11 [0] NCCL INFO transport/net.cc:1300 -> 6",
                "h1:10:11 [0] NCCL INFO proxy.cc:900 -> 6 [Progress Thread]"));
        assertThat(d.findings()).extracting(i -> i.code() + " " + i.severity())
                .contains("IB_COMPLETION_ERROR FAIL", "NCCL_ERROR FAIL");
        assertThat(d.findings().get(0).message()).contains("IBV_WC_RETRY_EXC_ERR", "status 12", "vendor error 129",
                "10.0.0.2<4711>");
        assertThat(d.citations().get("IB_COMPLETION_ERROR"))
                .startsWith("ib-completion-error: src/transport/net_ib/p2p.cc (NCCL 2.29.2-2.30.7)");
        assertThat(d.findings()).filteredOn(i -> i.code().equals("NCCL_ERROR")).singleElement()
                .satisfies(i -> assertThat(i.message())
                        .contains("ncclRemoteError", "the line that says why: new.log:1:"));
    }

    /** A line its poster cut short cites the format it begins, not the newest one. */
    @Test
    void aCutLineCitesTheFormatItBegins() {
        Rule rule = TABLE.rules().stream().filter(r -> r.id().equals("ib-completion-error")).findFirst().orElseThrow();
        Format cited = rule.citedFor("NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len");
        assertThat(cited.format()).startsWith("NET/IB : Got completion from peer %s with error %d, opcode %d, len %d");
    }

    /** Hosts compared: every host's completion error names one peer, so that peer is where to start. */
    @Test
    void hostsThatAllNameOnePeerPointAtIt() {
        Diagnosis d = Diagnoser.diagnose("x.log", List.of(
                "a:1:2 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.9<1> with error 12,"
                        + " opcode 0, len 0, vendor err 129",
                "b:1:2 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.9<1> with error 12,"
                        + " opcode 0, len 0, vendor err 129"));
        assertThat(d.findings().get(0).message()).contains("2 lines from 2 hosts: a, b",
                "every reporting host names the same peer 10.0.0.9<1>");
    }

    /** A WARN line no row knows stays the generic finding, quoted, and a benign result (in progress) is no finding. */
    @Test
    void unknownWarnsStayGenericAndInProgressIsNoError() {
        Diagnosis d = Diagnoser.diagnose("x.log", List.of(
                "a:1:2 [0] foo.cc:1 NCCL WARN something NCCL never said before",
                "a:1:2 [0] NCCL INFO init.cc:1 -> 7"));
        assertThat(d.findings()).extracting(i -> i.code() + ": " + i.message())
                .containsExactly("NCCL_WARN: something NCCL never said before");
    }
}
