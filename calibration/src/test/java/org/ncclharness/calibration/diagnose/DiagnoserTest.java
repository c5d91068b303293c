package org.ncclharness.calibration.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.read.LogDiagnosis;

/**
 * Every real NCCL_DEBUG=INFO excerpt of {@code logs/ncclinfo/} (sources in their headers) against the
 * diagnosis an expert gave in its {@code # expect:} line: the WARN and FAIL codes found, nothing more, and the
 * transports where the excerpt shows them. Only the RAW block is read: the header describes, the tool must not.
 */
class DiagnoserTest {

    static Diagnosis diagnose(String name) throws IOException {
        List<String> all = Files.readAllLines(Path.of("src/test/resources/logs/ncclinfo/" + name + ".txt"));
        int from = all.indexOf("=== RAW") + 1;
        int to = all.indexOf("=== END RAW");
        return Diagnoser.diagnose(name, all.subList(from, to < 0 ? all.size() : to));
    }

    /**
     * The channels are {@code LogFacts}' counts for the tested communicator: a p4d's 24 coll, 0 nvls and 32 p2p; a
     * 2.19+ connection line ({@code Channel 07/0 : 0[0] -> 2[0] ... via NET/IB}) names a connection index, not a
     * channel count, so a log with only those says nothing of its channels (it read as 0 before).
     */
    @Test
    void theChannelsAreTheTestedCommunicatorsCountsNotAConnectionIndex() throws IOException {
        Diagnosis p4d = diagnose("p2p_cumem_read_nvlink_p4d_1pod_4gpu");
        assertThat(p4d.channels()).isEqualTo(new org.ncclharness.calibration.nccl.ChannelCounts(4, 24, 24, 0, 32, 32));
        StringWriter text = new StringWriter();
        DiagnosisWriter.text(new PrintWriter(text), p4d);
        assertThat(text.toString()).contains("; channels: 24 coll, 24 collnet, 0 nvls, 32 p2p (32 per peer) channels");
        assertThat(diagnose("ib_gdr_rail_p2p_cumem_h20_2node_2gpu_issue1189").channels()).isNull();
        // no nranks line names the size: the one count the lines print
        assertThat(diagnose("nvls_comm_h800_4gpu_timeout_issue1609").channels().nvls()).isEqualTo(16);
    }

    /**
     * A run at NCCL_DEBUG=version prints no NCCL line, but its mpirun line forces Ring (NVIDIA/nccl#1368): the
     * forced algorithm is said, with that line as the evidence, beside the missing NCCL lines.
     */
    @Test
    void aLaunchLineThatForcesAnAlgorithmIsReadWhereNoNcclLineSaysIt() throws IOException {
        List<String> all = Files.readAllLines(Path.of("src/test/resources/logs/real/"
                + "prefix_ompi_timestamp_h100_5x8_roce_ring_nccl1368.txt"));
        List<String> raw = all.subList(all.indexOf("=== RAW (copied verbatim from the source) ===") + 1,
                all.indexOf("=== END RAW"));
        Diagnosis d = Diagnoser.diagnose("nccl1368.txt", raw);
        assertThat(d.findings()).extracting(LogDiagnosis.Issue::code).containsExactly("NO_NCCL_LINES", "FORCED_ALGO");
        assertThat(d.findings().get(1).message()).startsWith("NCCL_ALGO=Ring is set");
        assertThat(d.findings().get(1).evidence()).startsWith("nccl1368.txt:1: /usr/mpi/gcc/openmpi-4.1.7a1/bin/mpirun");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // file | WARN/FAIL codes (space-separated, '-' for none) | an intra transport | an inter transport
        "bootstrap_ipv6_linklocal_ib1_connect_abort_issue975 | CONNECT_FAILED NCCL_ERROR | - | -",
        "collnet_requested_not_supported_warn_ib_gdr_tests133 | COLLNET_UNSUPPORTED | P2P/direct pointer/read | NET/IB/GDRDMA",
        "collnet_sharp_init_then_hang_a100_4node_2gpu_nccl2234_tests311 | NCCL_WARN | - | COLLNET/SHARP/GDRDMA",
        "efa_ofi_open_av_einval_hang_horovod_nccl24_ofi_issue24 | NET_PLUGIN_FAILED GDR_OFF | P2P/IPC | NET/AWS Libfabric",
        "efa_p4d_4pods_1gpu_each_nccl2273 | - | - | NET/Libfabric/GDRDMA",
        "efa_plugin_no_provider_socket_fallback_g6e8x_nccl2273 | NET_PLUGIN_FAILED SOCKET_FALLBACK NO_IB_DEVICE | - | NET/Socket",
        "gcp_fastsocket_8nic_no_gdr_h100_issue1519 | - | - | -",
        "ib_azure_completion_error12_vendor129_2node | IB_COMPLETION_ERROR NCCL_ERROR IB_LIST_MIXES_LINK_LAYERS | - | -",
        "ib_completion_error4_vendor81_h100_5node_issue928 | IB_COMPLETION_ERROR NCCL_ERROR | - | -",
        "ib_gdr_rail_p2p_cumem_h20_2node_2gpu_issue1189 | - | - | NET/IB/GDRDMA",
        "ib_with_virbr0_socket_list_2node_nccltests_issue29 | - | - | -",
        "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319 | - | P2P/CUMEM | NET/NCCL RDMA Plugin v8/GDRDMA",
        "ib_hdr_gdr_sys_shm_disabled_1gpu_per_host_nccl2215_tests293 | - | - | NET/IBext_v8/GDRDMA",
        "ib_internal_4hca_nccl237_old_format_issue179 | - | - | -",
        "ib_list_contains_roce_port_nccl256_issue302 | IB_LIST_MIXES_LINK_LAYERS | P2P/IPC | -",
        "ib_nogdr_peermem_no_module_2node_issue899 | GDR_OFF | - | NET/IB",
        "intranode_over_net_ib_loopback_gdr_a100_issue707 | P2P_OFF | NET/IB/GDRDMA | -",
        "ipoib_socket_ib_unusable_nccl237_issue207 | SOCKET_FALLBACK | - | -",
        "nvls_available_ibext_sharp_prefix_stripped_h100_nccl2243_issue1584 | - | - | -",
        "nvls_comm_h800_4gpu_timeout_issue1609 | - | - | -",
        "p2p_cumem_pcie_2x_rtx5060ti_patched_driver_nccl2289 | - | P2P/CUMEM | -",
        "p2p_cumem_read_nvlink_p4d_1pod_4gpu | - | P2P/CUMEM/read | -",
        "p2p_direct_pointer_single_process_2gpu_cross_numa_issue1358 | - | P2P/direct pointer | -",
        "p2p_ipc_peer_access_not_supported_217_ray_nccl278_raylightning24 | P2P_OFF NCCL_ERROR | P2P/IPC | -",
        "rccl_slingshot_no_ofi_plugin_socket_hsn_crusher | SOCKET_FALLBACK NO_IB_DEVICE | - | NET/Socket",
        "separate_jobs_rank0_on_two_hosts_nomp1_issue182 | SEPARATE_JOBS | - | -",
        "mixed_gpus_socket_connect_timeout_h100nvl_a100_2node_nccl2262 | MIXED_GPUS CONNECT_RETRY SOCKET_FALLBACK NO_IB_DEVICE | - | -",
        "nic_count_differs_7vs8_mi300x_vf_rccl_issue1423 | NIC_COUNT_DIFFERS | - | -",
        "test_failed_bootstrap_af_family_h100_2x8_nccltests294 | TEST_FAILED SOCKET_ADDRESS_INVALID NCCL_ERROR | - | -",
        "roce_bridge_oob_partial_gdr_shm_cross_socket_nccl257_issue392 | GDR_OFF P2P_OFF | SHM/direct | NET/IB",
        "roce_gdr_disabled_despite_peermem_16rank_issue1537 | GDR_OFF | - | -",
        "roce_gdr_ofiplugin_fallback_2node_nccl2275 | NET_PLUGIN_FAILED | - | NET/IB/GDRDMA",
        "socket_connect_abort_proxy_fail_shm_intra_issue166_tests | CONNECT_FAILED NCCL_ERROR P2P_OFF | SHM/direct/direct | -",
        "socket_multinic_ethernet_2node_8gpu_issue601 | SOCKET_FALLBACK | - | NET/Socket",
        "socket_forced_p2p_shm_disabled_1vm_2gpu_nccl2292_warn | P2P_OFF SOCKET_ADDRESS_INVALID NCCL_ERROR NET_PLUGIN_FAILED SOCKET_FALLBACK"
                + " NO_IB_DEVICE SOCKET_ON_VIRTUAL_IFACE | - | NET/Socket/Shared",
        "socket_shm_2gpu_workstation_nccl2275 | P2P_OFF | SHM/direct/direct | -",
        "efa_ofi_av_insert_fail_p5_k8s_al2_ami_mpirun_tags_awsomedistributedai519 | NET_PLUGIN_FAILED | - | -",
        "ib_gdr_disabled_nvidia_peermem_unrecognised_dgxos2501_nccl2223_issue1676 | GDR_OFF | - | -",
        "invalid_usage_duplicate_gpu_torch_last_error_nccl2193_dfine289"
                + " | NO_NCCL_LINES NCCL_ERROR DUPLICATE_GPU | - | -",
        "nvls_cuda_failure_1_invalid_argument_fabricmanager_h800_8gpu_nccl2215_issue1338"
                + " | NVLS_FAILED NCCL_ERROR | - | -",
        "nvls_cuda_invalid_argument_fabricmanager_h100_prefix_stripped_nccl2185_issue976"
                + " | NVLS_FAILED NCCL_ERROR | - | -",
        "nvls_alloc_mem_cuda_failure_1_fabricmanager_restarted_h100_nccl222x_issue1488"
                + " | NVLS_FAILED NCCL_ERROR | - | -",
        "nvls_bind_multicast_401_fabricmanager_torch_last_error_h100_ci_nccl2293_pytorch177472"
                + " | NO_NCCL_LINES NCCL_ERROR NVLS_FAILED | - | -",
        "nvls_cuda_failure_401_present_state_timestamped_h100_vllm_nccl2262_issue1788 | NVLS_FAILED | - | -",
        "nvls_bind_multicast_401_nccl230_function_prefix_nvlink_bad_state_8gpu_dcgm304 | NVLS_FAILED | - | -",
        "remote_error_socket_recv_reset_torch_last_error_v100_nccl2215_issue2076"
                + " | NO_NCCL_LINES NCCL_ERROR CONNECT_FAILED | - | -",
        "ring_not_loop_back_prefix_stripped_nccl2193_issue1020 | RING_MISMATCH | - | -",
        "roce_completion_error12_vendor129_gid_index_cut_prefix_issue426 | IB_COMPLETION_ERROR | - | -",
        "roce_modify_qp_rtr_timeout_110_rail_only_cross_nic_redacted_nccl227_issue2013 | IB_QP_FAILED | - | -",
        "ib_reg_mr_iova2_enomem_memlock_8192k_shm_disabled_1node_nccltests206 | IB_MEMLOCK | - | -",
        "shm_attach_enoent_proxy_segment_ib_gdr_shared_newer_than_2215_issue1589 | SHM_FAILED | - | -",
        "shm_extend_enospc_ci_pod_timestamped_t4_4gpu_pytorchciinfra490 | SHM_FAILED | - | -",
        "shm_posix_fallocate_docker_64mb_no_prefix_nccl273_issue342 | SHM_FAILED | - | -",
        "shm_posix_fallocate_kubeflow_rank_only_prefix_nccl296_issue525 | SHM_FAILED | - | -",
        "socket_creation_af_not_supported_no_ip_interface_1node_mpirun_issue210 | SOCKET_UNUSABLE | - | -",
        "socket_finalize_accept_wrong_type_ib_vs_socket_same_hostname_nccltests188"
                + " | NET_TYPE_MISMATCH SOCKET_FALLBACK | - | -",
        "socket_ifname_missing_family_garbage_trainer_prefix_nccl2277_issue1837"
                + " | NCCL_ERROR SOCKET_ADDRESS_INVALID SOCKET_IFNAME_NOT_FOUND | - | -",
    })
    void eachExcerptIsDiagnosedAsTheExpertDid(String file, String codes, String intra, String inter) throws IOException {
        Diagnosis d = diagnose(file);
        Set<String> expected = codes == null ? Set.of() : Set.of(codes.split(" "));
        Set<String> found = d.findings().stream().filter(i -> i.severity() != Severity.INFO).map(LogDiagnosis.Issue::code)
                .collect(Collectors.toSet());
        assertThat(found).as("%s: %s", file, d.findings()).isEqualTo(expected);
        if (intra != null) {
            assertThat(d.intra()).as("intra").containsKey(intra);
        }
        if (inter != null) {
            assertThat(d.inter()).as("inter").containsKey(inter);
        }
        assertThat(d.findings()).allMatch(i -> i.fix() != null && !i.fix().isBlank())
                .filteredOn(i -> !i.code().equals("NO_NCCL_LINES")).allMatch(i -> i.evidence() != null
                        && i.evidence().startsWith(file + ":"));
    }

    /**
     * nccl-tests' own failure lines fail the run; a log with only NCCL's version line (NCCL_DEBUG=VERSION or WARN)
     * has nothing to diagnose; a launch line's NCCL_DEBUG_FILE is where NCCL's lines went.
     */
    @Test
    void failedRanksVersionOnlyLogsAndRedirectedLinesAreNamed() {
        Diagnosis failed = Diagnoser.diagnose("f.txt", List.of(
                "mpirun -np 16 -x NCCL_DEBUG=INFO -x NCCL_DEBUG_FILE=/tmp/nccl.%h.log ./all_reduce_perf -g 1",
                "  1073741824     268435456     float     sum      -1    19355   55.48  110.84      0    19189   55.96  111.80      0",
                "HCA-128: Test NCCL failure common.cu:1204 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '",
                " .. HCA-128 pid 757466: Test failure common.cu:915"));
        assertThat(failed.codes()).contains("TEST_FAILED", "NO_NCCL_LINES");
        assertThat(failed.findings()).filteredOn(i -> i.code().equals("TEST_FAILED")).singleElement()
                .satisfies(i -> {
                    assertThat(i.severity()).isEqualTo(Severity.FAIL);
                    assertThat(i.evidence()).startsWith("f.txt:3: HCA-128: Test NCCL failure");
                });
        assertThat(failed.findings()).filteredOn(i -> i.code().equals("TEST_FAILED")).singleElement()
                .satisfies(i -> assertThat(i.message()).contains("1 failure line, all on HCA-128"));
        assertThat(failed.findings()).filteredOn(i -> i.code().equals("NO_NCCL_LINES")).singleElement()
                .satisfies(i -> assertThat(i.fix()).contains("NCCL_DEBUG_FILE=/tmp/nccl.%h.log"));
        Diagnosis versionOnly = Diagnoser.diagnose("v.txt", List.of("#  Rank  0 Group  0 Pid 1 on a device  0"
                + " [0x05] NVIDIA H100", "#  Rank  1 Group  0 Pid 2 on b device  0 [0x05] NVIDIA H100",
                "NCCL version 2.30.3+cuda13.0"));
        assertThat(versionOnly.codes()).containsExactly("NO_NCCL_LINES");
        assertThat(versionOnly.ranks()).isEqualTo(2);
        assertThat(versionOnly.nodes()).isEqualTo(2);
    }

    /**
     * Jobs that never talked to each other: two device lists with their own rank 0 (nccl-tests#306, two hosts
     * without MPI=1), or every communicator of one rank (nccl-tests#294, 16 processes); RCCL's version line read.
     */
    @Test
    void separateJobsShowInTheDeviceListAndOneRankCommunicatorsAndRcclIsRead() {
        Diagnosis two = Diagnoser.diagnose("306.txt", List.of(
                "#  Rank  0 Group  0 Pid 1528921 on      node3 device  0 [0000:0f:00] NVIDIA H20",
                "#  Rank  1 Group  0 Pid 1528921 on      node3 device  1 [0000:10:00] NVIDIA H20",
                "#  Rank  0 Group  0 Pid 2171626 on      node2 device  0 [0000:0f:00] NVIDIA H20",
                "#  Rank  1 Group  0 Pid 2171626 on      node2 device  1 [0000:10:00] NVIDIA H20"));
        assertThat(two.findings()).filteredOn(i -> i.code().equals("SEPARATE_JOBS")).singleElement()
                .satisfies(i -> {
                    assertThat(i.message()).startsWith("the device list of one run shows rank 0 again (on node2)");
                    assertThat(i.evidence()).startsWith("306.txt:3: ");
                });
        // a script's several tests, each with its own list and trailer, are not several jobs
        for (String log : List.of("coll_mi355x_rccl_allreduce_alltoall_8gpu_oci_trimmed",
                "coll_h100_5colls_10node_1gpu_script_double", "coll_b200_sendrecv_64gpu_8node_together_two_tables")) {
            try {
                assertThat(Diagnoser.diagnose(log, Files.readAllLines(Path.of("src/test/resources/logs/real/" + log
                        + ".txt"))).codes()).as(log).doesNotContain("SEPARATE_JOBS");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        Diagnosis alone = Diagnoser.diagnose("294.txt", List.of("h100-test-rg-1:19570:19570 [0] NCCL INFO comm"
                + " 0x55ba38f2abd0 rank 0 nranks 1 cudaDev 0 busId 200010 - Destroy COMPLETE"));
        assertThat(alone.codes()).contains("ONE_RANK");
        assertThat(Diagnoser.diagnose("r.txt", List.of("RCCL version 2.16.5+hip5.6 HEAD:3dcebc7+",
                "g1064:11143:11194 [0] NCCL INFO NET/IB : No device found.")).ncclVersions()).containsExactly("2.16.5");
    }

    @Test
    void nccl23PrintsItsVersionWithoutTheInfoPrefixAndNamesItsBootstrapInterfaceOtherwise() throws IOException {
        for (String f : List.of("ib_internal_4hca_nccl237_old_format_issue179", "ipoib_socket_ib_unusable_nccl237_issue207")) {
            Diagnosis d = diagnose(f);
            assertThat(d.ncclVersions()).as(f).containsExactly("2.3.7");
            assertThat(d.bootstrap()).as(f).isNotNull();
        }
        assertThat(diagnose("ib_internal_4hca_nccl237_old_format_issue179").bootstrap())
                .isEqualTo("enp1s0f0:100.97.70.134<0>");
        // a log pasted indented (as a Markdown block) keeps the bare version line indented too: the AWS DLAMI p4d
        // log, NCCL 2.7.8, was read as "NCCL not in the log"
        List<String> indented = List.of(
                "    ip-172-31-70-88:18546:18546 [0] NCCL INFO Using network AWS Libfabric",
                "    NCCL version 2.7.8+cuda11.0",
                "    ip-172-31-70-88:18552:18552 [6] NCCL INFO NET/OFI Selected Provider is efa");
        assertThat(Diagnoser.diagnose("p4d.txt", indented).ncclVersions()).containsExactly("2.7.8");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "collnet_sharp_init_then_hang_a100_4node_2gpu_nccl2234_tests311 | 2.23.4 | 8 | 4 | 6 | in use",
        "roce_gdr_ofiplugin_fallback_2node_nccl2275 | 2.27.5 | 16 | 2 | 8 | -",
    })
    void versionsScaleAndNicsAreRead(String file, String version, int ranks, int nodes, int nics, String collnet)
            throws IOException {
        Diagnosis d = diagnose(file);
        assertThat(d.ncclVersions()).containsExactly(version);
        assertThat(d.ranks()).isEqualTo(ranks);
        assertThat(d.nodes()).isEqualTo(nodes);
        assertThat(d.nics()).hasSize(nics);
        assertThat(d.collnet()).isEqualTo(collnet.equals("-") ? null : collnet);
        assertThat(d.gdr()).isTrue();
    }

    /**
     * What the expert read beside the transports: a forced NCCL_ALGO decides what the busbw compares with (#319,
     * HPC-X's plugin, whose name has spaces: GPUDirect RDMA on, not GDR_OFF); NCCL_SHM_DISABLE=1 on hosts of one GPU
     * each changes nothing (#293, sjeaugey), so it is no WARN.
     */
    @Test
    void aForcedAlgorithmIsNamedAndShmDisabledOnOneGpuHostsIsNoWarning() throws IOException {
        Diagnosis ring = diagnose("ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319");
        assertThat(ring.gdr()).isTrue();
        assertThat(ring.ncclVersions()).containsExactly("2.26.2");
        assertThat(ring.nodes()).isEqualTo(2);
        assertThat(ring.nics()).hasSize(8);
        assertThat(ring.findings()).filteredOn(i -> i.code().equals("FORCED_ALGO")).singleElement()
                .satisfies(i -> assertThat(i.message()).startsWith("NCCL_ALGO=RING is set"));
        Diagnosis shm = diagnose("ib_hdr_gdr_sys_shm_disabled_1gpu_per_host_nccl2215_tests293");
        assertThat(shm.findings()).filteredOn(i -> i.code().equals("P2P_OFF")).singleElement()
                .satisfies(i -> assertThat(i.severity()).isEqualTo(Severity.INFO));
    }

    /**
     * Two real nccl-tests logs with NCCL INFO lines, from the reader's fixtures (sources in logs/real): a plugin
     * name with a space (aws-ofi-nccl's {@code NET/AWS Libfabric/1/GDRDMA}) and a shared GDR connection
     * ({@code NET/IB/0/GDRDMA/Shared}) are GPUDirect RDMA, not GDR_OFF.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "prefix_mpitag_eks_efa_p4d_interleaved_errorcol | NET/AWS Libfabric/GDRDMA | AWS Libfabric",
        "coll_a100pcie_gather_2node_linear_ncclinfo_partial | NET/IB/GDRDMA/Shared | -",
    })
    void realLogsWithGpuDirectRdmaAreNotCalledGdrOff(String file, String inter, String network) throws IOException {
        Diagnosis d = Diagnoser.diagnose(file, Files.readAllLines(Path.of("src/test/resources/logs/real/" + file
                + ".txt")));
        assertThat(d.inter()).containsKey(inter);
        assertThat(d.gdr()).isTrue();
        assertThat(d.codes()).doesNotContain("GDR_OFF");
        if (!network.equals("-")) {
            assertThat(d.network()).isEqualTo(network);
        }
    }

    /**
     * The excerpt whose poster stripped every 'host:pid:tid [dev] NCCL INFO' prefix, as the user has it (its raw
     * lines alone): its first line being NCCL's bare version line must not hide the others. The facts the expert
     * read: NCCL 2.24.3, 8 ranks, bootstrap on eth0, IBext_v8 over 8 SHARP HCAs, NVLS available.
     */
    @Test
    void aLogWithEveryPrefixStrippedIsReadWhateverItsFirstLine() throws IOException {
        List<String> all = Files.readAllLines(Path.of("src/test/resources/logs/ncclinfo/"
                + "nvls_available_ibext_sharp_prefix_stripped_h100_nccl2243_issue1584.txt"));
        List<String> raw = all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW"));
        List<String> versionFirst = new java.util.ArrayList<>(raw);
        versionFirst.add(0, versionFirst.remove(raw.indexOf("NCCL version 2.24.3+cuda12.2")));
        for (List<String> lines : List.of(raw, versionFirst)) {
            Diagnosis d = Diagnoser.diagnose("stripped.log", lines);
            assertThat(d.ncclVersions()).containsExactly("2.24.3");
            assertThat(d.ranks()).isEqualTo(8);
            assertThat(d.bootstrap()).startsWith("eth0");
            assertThat(d.network()).isEqualTo("IBext_v8");
            assertThat(d.nics()).hasSize(8);
            assertThat(d.nvls()).isEqualTo("available");
        }
    }

    @Test
    void aLogWithoutNcclLinesSaysHowToGetThem() {
        Diagnosis d = Diagnoser.diagnose("run.txt", List.of("#  Rank  0 Group  0 Pid 1 on host device 0",
                "# Avg bus bandwidth : 1"));
        assertThat(d.codes()).containsExactly("NO_NCCL_LINES");
        assertThat(d.findings().get(0).fix()).contains("NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV");
    }

    /**
     * The transports and a launch line's NCCL_* variables print in one order, run after run: a map copied with
     * Map.copyOf iterates in an order salted per JVM, so the same log printed its transports and a bring-up ticket
     * its environment in another order each time.
     */
    @Test
    void transportsAndTheLaunchEnvironmentKeepTheirSortedOrder() throws IOException {
        String file = "coll_a100pcie_gather_2node_linear_ncclinfo_partial";
        List<String> lines = Files.readAllLines(Path.of("src/test/resources/logs/real/" + file + ".txt"));
        Diagnosis d = Diagnoser.diagnose(file, lines);
        assertThat(List.copyOf(d.inter().keySet())).isSorted().hasSizeGreaterThan(1);
        List<String> env = List.copyOf(org.ncclharness.calibration.read.LogFacts.of(Files.readAllLines(Path.of(
                "../datasets/raw/h100_allreduce_2gpu_2node_4nic_tree_ncclTests232_partial.txt"))).environment().keySet());
        assertThat(env).isSorted().hasSizeGreaterThan(3);
    }
}
