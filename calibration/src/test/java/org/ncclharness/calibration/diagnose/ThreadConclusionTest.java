package org.ncclharness.calibration.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ncclharness.calibration.measure.Severity;

/**
 * Every real excerpt of {@code logs/ncclinfo/} against what its source concluded (its {@code # thread-conclusion:}
 * line, or for the first 36 its {@code # expect:} line): the words of that conclusion a finding must say, in its
 * message or fix ({@code -} where the source found nothing wrong in these lines: no WARN or FAIL may be given); the
 * codes are {@link DiagnoserTest}'s. A new excerpt without a row here fails the test.
 */
class ThreadConclusionTest {

    private static final Path DIR = Path.of("src/test/resources/logs/ncclinfo");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // file | the conclusion's words a finding says ('-': nothing wrong in these lines)
        "bootstrap_ipv6_linklocal_ib1_connect_abort_issue975 | NCCL_SOCKET_FAMILY=AF_INET",
        "collnet_requested_not_supported_warn_ib_gdr_tests133 | SHARP collnet plugin",
        "collnet_sharp_init_then_hang_a100_4node_2gpu_nccl2234_tests311 | NCCL_COLLNET_ENABLE=0",
        "efa_ofi_av_insert_fail_p5_k8s_al2_ami_mpirun_tags_awsomedistributedai519 | another image or AMI",
        "efa_ofi_open_av_einval_hang_horovod_nccl24_ofi_issue24 | EFA driver, libfabric",
        "efa_p4d_4pods_1gpu_each_nccl2273 | one pod/container",
        "efa_plugin_no_provider_socket_fallback_g6e8x_nccl2273 | EFA",
        "gcp_fastsocket_8nic_no_gdr_h100_issue1519 | -",
        "ib_azure_completion_error12_vendor129_2node | availability set",
        "ib_completion_error4_vendor81_h100_5node_issue928 | disable ACS",
        "ib_gdr_disabled_nvidia_peermem_unrecognised_dgxos2501_nccl2223_issue1676 | upgrade NCCL to 2.23.4",
        "ib_gdr_rail_p2p_cumem_h20_2node_2gpu_issue1189 | -",
        "ib_hdr_gdr_sys_shm_disabled_1gpu_per_host_nccl2215_tests293 | changes nothing",
        "ib_internal_4hca_nccl237_old_format_issue179 | -",
        "ib_list_contains_roce_port_nccl256_issue302 | NCCL_IB_HCA",
        "ib_nogdr_peermem_no_module_2node_issue899 | nvidia-peermem",
        "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319 | NCCL_ALGO=RING",
        "ib_with_virbr0_socket_list_2node_nccltests_issue29 | does not carry the data",
        "intranode_over_net_ib_loopback_gdr_a100_issue707 | instead of P2P",
        "invalid_usage_duplicate_gpu_torch_last_error_nccl2193_dfine289 | do not hard-code a GPU",
        "ipoib_socket_ib_unusable_nccl237_issue207 | rdma-core",
        "mixed_gpus_socket_connect_timeout_h100nvl_a100_2node_nccl2262 | firewalls and security groups",
        "nic_count_differs_7vs8_mi300x_vf_rccl_issue1423 | flapping",
        "nvls_available_ibext_sharp_prefix_stripped_h100_nccl2243_issue1584 | -",
        "nvls_comm_h800_4gpu_timeout_issue1609 | -",
        "nvls_cuda_failure_1_invalid_argument_fabricmanager_h800_8gpu_nccl2215_issue1338"
                + " | restart nvidia-fabricmanager",
        "nvls_cuda_invalid_argument_fabricmanager_h100_prefix_stripped_nccl2185_issue976 | or reboot the node",
        "nvls_alloc_mem_cuda_failure_1_fabricmanager_restarted_h100_nccl222x_issue1488 | restart nvidia-fabricmanager",
        "nvls_bind_multicast_401_fabricmanager_torch_last_error_h100_ci_nccl2293_pytorch177472"
                + " | NCCL_NVLS_ENABLE=0",
        "nvls_cuda_failure_401_present_state_timestamped_h100_vllm_nccl2262_issue1788 | NCCL_NVLS_ENABLE=0",
        "nvls_bind_multicast_401_nccl230_function_prefix_nvlink_bad_state_8gpu_dcgm304 | NVSwitch fabric",
        "p2p_cumem_pcie_2x_rtx5060ti_patched_driver_nccl2289 | -",
        "p2p_cumem_read_nvlink_p4d_1pod_4gpu | -",
        "p2p_direct_pointer_single_process_2gpu_cross_numa_issue1358 | -",
        "p2p_ipc_peer_access_not_supported_217_ray_nccl278_raylightning24 | NCCL_P2P_DISABLE=1",
        "rccl_slingshot_no_ofi_plugin_socket_hsn_crusher | OFI/cxi plugin",
        "remote_error_socket_recv_reset_torch_last_error_v100_nccl2215_issue2076 | the network between them",
        "ring_not_loop_back_prefix_stripped_nccl2193_issue1020 | upgrade NCCL to 2.20",
        "roce_bridge_oob_partial_gdr_shm_cross_socket_nccl257_issue392 | GPUDirect RDMA",
        "roce_completion_error12_vendor129_gid_index_cut_prefix_issue426 | NCCL_IB_GID_INDEX",
        "roce_gdr_disabled_despite_peermem_16rank_issue1537 | DMA-BUF",
        "roce_gdr_ofiplugin_fallback_2node_nccl2275 | NCCL_NET_PLUGIN",
        "roce_modify_qp_rtr_timeout_110_rail_only_cross_nic_redacted_nccl227_issue2013 | NCCL_CROSS_NIC=0",
        "ib_reg_mr_iova2_enomem_memlock_8192k_shm_disabled_1node_nccltests206 | ulimit -l",
        "separate_jobs_rank0_on_two_hosts_nomp1_issue182 | MPI=1",
        "shm_attach_enoent_proxy_segment_ib_gdr_shared_newer_than_2215_issue1589 | 2.21.5 worked",
        "shm_extend_enospc_ci_pod_timestamped_t4_4gpu_pytorchciinfra490 | memory-backed emptyDir",
        "shm_posix_fallocate_docker_64mb_no_prefix_nccl273_issue342 | --shm-size",
        "shm_posix_fallocate_kubeflow_rank_only_prefix_nccl296_issue525 | remove stale /dev/shm",
        "socket_connect_abort_proxy_fail_shm_intra_issue166_tests | NCCL_SOCKET_IFNAME",
        "socket_creation_af_not_supported_no_ip_interface_1node_mpirun_issue210 | IP interface",
        "socket_finalize_accept_wrong_type_ib_vs_socket_same_hostname_nccltests188 | NCCL_IB_DISABLE=1 on all ranks",
        "socket_forced_p2p_shm_disabled_1vm_2gpu_nccl2292_warn | unset NCCL_P2P_DISABLE",
        "socket_ifname_missing_family_garbage_trainer_prefix_nccl2277_issue1837 | may not exist on this host",
        "socket_multinic_ethernet_2node_8gpu_issue601 | NET/Socket (TCP)",
        "socket_shm_2gpu_workstation_nccl2275 | NCCL_SOCKET_IFNAME",
        "test_failed_bootstrap_af_family_h100_2x8_nccltests294 | one NCCL build",
    })
    void diagnoseNamesWhatTheSourceConcluded(String file, String words) throws IOException {
        Diagnosis d = DiagnoserTest.diagnose(file);
        if (words == null) {
            assertThat(d.findings()).as("%s found nothing wrong", file).allMatch(i -> i.severity() == Severity.INFO);
        } else {
            assertThat(d.findings()).as("a finding of %s says '%s'", file, words)
                    .anySatisfy(i -> assertThat(i.message() + " / " + i.fix()).containsIgnoringCase(words));
        }
    }

    /** Each excerpt of the directory has its row above. */
    @Test
    void everyExcerptHasItsConclusionRow() throws IOException, NoSuchMethodException {
        String rows = String.join("\n", ThreadConclusionTest.class
                .getDeclaredMethod("diagnoseNamesWhatTheSourceConcluded", String.class, String.class)
                .getAnnotation(CsvSource.class).value());
        try (Stream<Path> files = Files.list(DIR)) {
            List<String> missing = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt"))
                    .map(n -> n.substring(0, n.length() - 4)).filter(n -> !rows.contains(n + " |")).toList();
            assertThat(missing).as("excerpts without a conclusion row").isEmpty();
        }
    }
}
