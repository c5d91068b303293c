package org.ncclharness.harness.calibrate;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * ASTRA-sim's analytical network configuration read back as its NetworkParser does (astra-sim/astra-network-analytical,
 * common/network-parser/NetworkParser.cpp as of 599a047): a YAML document whose {@code topology} names one of Ring,
 * FullyConnected, Switch per dimension; {@code npus_count} (int), {@code bandwidth} (GB/s of 2^30 B) and
 * {@code latency} (ns) as many as there are dimensions; every npus_count above 1, bandwidth above 0, latency at
 * least 0. A file that breaks a rule is refused (the parser exits).
 */
final class AstraSimNetworkParser {

    record Network(List<String> topology, List<Integer> npusCount, List<Double> bandwidth, List<Double> latency) {
    }

    private AstraSimNetworkParser() {
    }

    @SuppressWarnings("unchecked")
    static Network parse(String text) {
        Map<String, Object> doc = new Yaml().load(text);
        List<String> topology = (List<String>) doc.get("topology");
        List<Integer> npus = ((List<Object>) doc.get("npus_count")).stream().map(o -> (Integer) o).toList();
        List<Double> bandwidth = doubles(doc.get("bandwidth"));
        List<Double> latency = doubles(doc.get("latency"));
        int dims = topology.size();
        check(topology.stream().allMatch(List.of("Ring", "FullyConnected", "Switch")::contains), "topology name");
        check(npus.size() == dims && bandwidth.size() == dims && latency.size() == dims, "lengths");
        check(npus.stream().allMatch(n -> n > 1), "npus_count > 1");
        check(bandwidth.stream().allMatch(b -> b > 0), "bandwidth > 0");
        check(latency.stream().allMatch(l -> l >= 0), "latency >= 0");
        return new Network(topology, npus, bandwidth, latency);
    }

    @SuppressWarnings("unchecked")
    private static List<Double> doubles(Object list) {
        return ((List<Object>) list).stream().map(o -> ((Number) o).doubleValue()).toList();
    }

    private static void check(boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("ASTRA-sim's NetworkParser refuses this file: " + rule);
        }
    }
}
