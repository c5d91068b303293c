package org.ncclharness.calibration.diagnose;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.ncclharness.calibration.read.LogDiagnosis.Issue;

/** A {@link Diagnosis} as text for the terminal and as {@value Diagnosis#SCHEMA} JSON. */
public final class DiagnosisWriter {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String UNKNOWN = "not in the log";

    private DiagnosisWriter() {
    }

    public static void text(PrintWriter out, Diagnosis d) {
        out.println("# diagnose: " + d.file());
        out.println("NCCL " + (d.ncclVersions().isEmpty() ? UNKNOWN : String.join(", ", d.ncclVersions()))
                + "; ranks " + or(d.ranks()) + "; nodes " + or(d.nodes()) + "; local ranks " + or(d.localRanks())
                + "; bootstrap " + or(d.bootstrap()));
        out.println("intra-node: " + transports(d.intra()));
        out.println("inter-node: " + transports(d.inter()) + (d.pxn() ? " (PXN: through proxy ranks)" : "")
                + "; GPUDirect RDMA " + (d.gdr() == null ? "not seen" : d.gdr() ? "on" : "OFF"));
        out.println("network: " + or(d.network()) + (d.nics().isEmpty() ? "" : "; NICs " + String.join(" ", d.nics()))
                + (d.socketInterfaces().isEmpty() ? "" : "; sockets on " + String.join(" ", d.socketInterfaces())));
        out.println("NVLS: " + or(d.nvls()) + "; CollNet: " + or(d.collnet()) + "; channels: "
                + (d.channels() == null ? UNKNOWN : d.channels().describe()));
        // the worst first (a stable sort: the rule order within a severity), so a FAIL is not below the notes
        for (Issue i : d.findings().stream().sorted(java.util.Comparator.comparing(Issue::severity)
                .reversed()).toList()) {
            out.println(i.severity() + " " + i.code() + ": " + i.message());
            if (i.evidence() != null) {
                out.println("    evidence: " + i.evidence());
            }
            if (d.citations().containsKey(i.code())) {
                out.println("    rule: " + d.citations().get(i.code()));
            }
            out.println("    fix: " + i.fix());
        }
        if (d.findings().isEmpty()) {
            out.println("no misconfiguration found in these lines");
        }
        out.flush();
    }

    /**
     * What NCCL used, in one line for a report beside other findings ({@code check}): the transports inside a host
     * and between hosts, GPUDirect RDMA, NVLS in use; empty where the log shows no transport.
     */
    public static java.util.Optional<String> transportLine(Diagnosis d) {
        if (d.intra().isEmpty() && d.inter().isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("NCCL used (its INFO lines): inside a host " + transports(d.intra())
                + "; between hosts " + transports(d.inter()) + (d.gdr() == null ? "" : ", GPUDirect RDMA "
                + (d.gdr() ? "on" : "OFF")) + ("in use".equals(d.nvls()) ? "; NVLS in use" : ""));
    }

    private static String transports(Map<String, Integer> t) {
        return t.isEmpty() ? "none seen" : t.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }

    private static String or(Object s) {
        return s == null ? UNKNOWN : s.toString();
    }

    private static void strings(ObjectNode n, String field, java.util.Collection<String> values) {
        ArrayNode a = n.putArray(field);
        values.forEach(a::add);
    }

    /** One document for every log: {@code {"schema": ..., "runs": [...]}}. */
    public static String json(List<Diagnosis> all) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", Diagnosis.SCHEMA);
        ArrayNode runs = root.putArray("runs");
        for (Diagnosis d : all) {
            ObjectNode n = runs.addObject();
            n.put("file", d.file());
            n.put("nccl_version", d.ncclVersions().isEmpty() ? null : d.ncclVersions().get(0));
            strings(n, "nccl_versions", d.ncclVersions());
            n.put("ranks", d.ranks());
            n.put("nodes", d.nodes());
            n.put("local_ranks", d.localRanks());
            n.put("bootstrap", d.bootstrap());
            ObjectNode t = n.putObject("transports");
            strings(t, "intra", d.intra().keySet());
            strings(t, "inter", d.inter().keySet());
            if (d.gdr() == null) {
                n.putNull("gdr");
            } else {
                n.put("gdr", d.gdr());
            }
            strings(n, "nics", d.nics());
            strings(n, "socket_interfaces", d.socketInterfaces());
            n.put("network", d.network());
            n.put("nvls", d.nvls());
            n.put("collnet", d.collnet());
            n.put("pxn", d.pxn());
            // the coll count, as schema 1 has always carried it; the text line gives the other counts
            if (d.channels() == null) {
                n.putNull("channels");
            } else {
                n.put("channels", d.channels().coll());
            }
            ArrayNode f = n.putArray("findings");
            for (Issue i : d.findings()) {
                ObjectNode o = f.addObject();
                o.put("code", i.code());
                o.put("severity", i.severity().name());
                o.put("message", i.message());
                o.put("evidence", i.evidence());
                o.put("rule", d.citations().get(i.code()));
                o.put("fix", i.fix());
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
