package org.ncclharness.calibration.diagnose;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.read.LogDiagnosis.Issue;

/**
 * What a log's NCCL lines say NCCL actually used, and what is wrong with it.
 *
 * @param file             the log as the user named it
 * @param ncclVersions     every distinct {@code NCCL version} printed
 * @param ranks            communicator size ({@code nranks}), null when not printed
 * @param nodes            {@code nNodes}, else the distinct hosts of the prefixes, null when neither tells
 * @param localRanks       {@code localRanks}, null when not printed
 * @param bootstrap        the bootstrap interface ({@code ib0:10.159.0.34<0>}), null when not printed
 * @param intra            transports between GPUs of one host, NCCL's spelling without device indexes, with counts
 * @param inter            transports between hosts, the same way
 * @param gdr              GPUDirect RDMA on the network: true, false, or null where no network transport is seen
 * @param nics             the network devices NCCL listed ({@code mlx5_0:1/IB})
 * @param socketInterfaces the interfaces of NET/Socket ({@code eth0:10.0.0.1<0>})
 * @param network          the network NCCL chose ({@code IB}, {@code Socket}, {@code IBext_v8}, {@code Libfabric})
 * @param nvls             {@code available}, {@code not available}, {@code in use}, or null
 * @param collnet          {@code in use}, {@code not supported}, or null
 * @param pxn              a network transport ran through a proxy rank ({@code NET/IB/0(1)/...})
 * @param channels         the channels NCCL printed for the tested communicator ({@link org.ncclharness.calibration.read.LogFacts}), null where
 *                         its lines do not say
 * @param findings         in the order found
 * @param citations        for a finding the diagnosis table gave, by its code: the table row's id and the NCCL
 *                         format string (source file, releases) its evidence line was printed from
 */
public record Diagnosis(String file, List<String> ncclVersions, Integer ranks, Integer nodes, Integer localRanks,
                        String bootstrap, Map<String, Integer> intra, Map<String, Integer> inter, Boolean gdr,
                        List<String> nics, List<String> socketInterfaces, String network, String nvls,
                        String collnet, boolean pxn, ChannelCounts channels, List<Issue> findings,
                        Map<String, String> citations) {

    public static final String SCHEMA = "nccl-harness/diagnosis/1";

    public Diagnosis {
        ncclVersions = List.copyOf(ncclVersions);
        intra = Collections.unmodifiableMap(new TreeMap<>(intra));
        inter = Collections.unmodifiableMap(new TreeMap<>(inter));
        nics = List.copyOf(nics);
        socketInterfaces = List.copyOf(socketInterfaces);
        findings = List.copyOf(findings);
        citations = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(citations));
    }

    public List<String> codes() {
        return findings.stream().map(Issue::code).distinct().toList();
    }
}
