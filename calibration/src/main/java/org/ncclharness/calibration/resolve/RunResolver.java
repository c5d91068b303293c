package org.ncclharness.calibration.resolve;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Decides, once, what hardware a run used: from what its input states (the reader's device list and launch line, a
 * dataset's metadata, the network NCCL's lines name), the GPU name's fabric (hardware/gpu-fabrics.json) and the
 * user's {@link Hints}. Every command resolves through here, so one input has one set of facts everywhere; a
 * command differs only in which {@link Missing} facts it can go without. The rules are in docs/calibration.md
 * ("What a run states, and what is asked").
 */
public final class RunResolver {

    /** What a command does where an input states no host count and nothing else requires one. */
    public enum UnstatedHosts {
        /** One host, noted ({@link ResolveNote.HostsAssumedOne}): a fit needs a count. */
        ASSUME_ONE,
        /** Unknown ({@link Missing.HostCount}): a verdict compares runs of the same shape only. */
        LEAVE_UNKNOWN
    }

    private final HardwareFacts facts;
    private final GpuFabrics fabrics;

    public RunResolver(HardwareFacts facts, GpuFabrics fabrics) {
        this.facts = facts;
        this.fabrics = fabrics;
    }

    public static RunResolver bundled() {
        return new RunResolver(HardwareFacts.bundled(), GpuFabrics.bundled());
    }

    /** Every table of the input, resolved. */
    public List<ResolvedRun> resolve(RunDocument doc, Hints hints, UnstatedHosts unstated) {
        return doc.requireSweeps().stream().map(t -> resolve(doc, t, hints, unstated)).toList();
    }

    /** One table of the input, resolved; a contradiction throws {@link ResolveException}. */
    public ResolvedRun resolve(RunDocument doc, Sweep table, Hints hints, UnstatedHosts unstated) {
        return new Resolution(doc, table, hints).run(unstated);
    }

    /** The work of one resolution: what it has found so far, and what it notes and misses. */
    private final class Resolution {
        private final RunDocument doc;
        private final Sweep table;
        private final Hints hints;
        private final Hardware stated;
        private final String gpu;
        private final List<ResolveNote> notes = new ArrayList<>();
        private final List<Missing> missing = new ArrayList<>();
        private Integer ranks;
        private Integer hosts;

        Resolution(RunDocument doc, Sweep table, Hints hints) {
            this.doc = doc;
            this.table = table;
            this.hints = hints;
            this.stated = table.hardware() == null ? Hardware.unknown() : table.hardware();
            this.gpu = table.gpuName();
        }

        ResolvedRun run(UnstatedHosts unstated) {
            // the reader states N where it knows it (a whole device list, the launch line, busbw over algbw); a device
            // list that shows some ranks only (an excerpt keeping rank 1439 of 1440) is no count
            ranks = reconcile(Setting.GPU_COUNT, stated.ranks(), hints.gpus());
            if (ranks == null) {
                missing.add(new Missing.GpuCount());
            }
            hosts = reconcile(Setting.HOST_COUNT, stated.hosts() != null ? stated.hosts() : hostsListed(),
                    hints.nodes());
            if (hosts == null) {
                hosts = unstatedHosts(unstated);
            }
            if (ranks != null && hosts != null && ranks % hosts != 0) {
                throw new ResolveException(doc.name(), new Contradiction.UnevenHosts(ranks, hosts));
            }
            Hardware hw = stated.intra() != null || stated.inter() != null ? asStated()
                    : hints.intra() != null ? twoTiers() : oneFabric();
            Nics nics = nics();
            String algo = doc.stated().datasetId() != null ? doc.stated().forcedAlgo()
                    : table.run() == null ? null : table.run().forcedAlgo();
            return new ResolvedRun(doc.name(), table.withHardware(hw), nics, algo, notes, missing);
        }

        /** A count the input states, else the hint's; both and different is a contradiction. */
        private Integer reconcile(Setting fact, Integer fromInput, Integer hinted) {
            if (hinted != null && hinted < 1) {
                throw new ResolveException(doc.name(), new Contradiction.CountBelowOne(fact, hinted, true));
            }
            if (fromInput != null && hinted != null && !fromInput.equals(hinted)) {
                throw new ResolveException(doc.name(), new Contradiction.CountsDiffer(fact, fromInput, hinted));
            }
            if (fromInput != null && fromInput < 1) {
                throw new ResolveException(doc.name(), new Contradiction.CountBelowOne(fact, fromInput, false));
            }
            return fromInput != null ? fromInput : hinted;
        }

        /**
         * The NICs: what the input states (a dataset's metadata, the log's {@code NET/IB : Using} lines), what it
         * leaves open filled from the hints; a hint that says otherwise than the input is a contradiction, as a count
         * is.
         */
        private Nics nics() {
            Nics fromInput = doc.nics();
            Nics hinted = hints.nics();
            reconcile(Setting.NICS_PER_HOST, fromInput.perHost(), hinted.perHost());
            if (fromInput.statedGBps() != null && hinted.statedGBps() != null
                    && Double.compare(fromInput.statedGBps(), hinted.statedGBps()) != 0) {
                throw new ResolveException(doc.name(), new Contradiction.RatesDiffer(Setting.NIC_SPEED,
                        fromInput.statedGBps(), hinted.statedGBps()));
            }
            return hinted.orElse(fromInput);
        }

        /**
         * The hosts the device lines name, where they list every rank; a list that shows fewer ranks than ran (one
         * process's devices) proves only a lower bound.
         */
        private Integer hostsListed() {
            long n = table.devices().stream().map(Device::host).filter(x -> x != null && !x.isBlank()).distinct()
                    .count();
            return n == 0 || ranks == null || table.devices().size() < ranks ? null : (int) n;
        }

        /** No host count anywhere: one where nothing contradicts it and the command assumes, else missing. */
        private Integer unstatedHosts(UnstatedHosts unstated) {
            int listed = table.devices().size();
            int listedHosts = (int) table.devices().stream().map(Device::host).distinct().count();
            Optional<NamedInterconnect> network = networkHint();
            Missing.HostCount.Why why;
            if (network.isPresent()) {
                // one host would leave the named network no tier to be
                why = Missing.HostCount.Why.NETWORK_NAMED;
            } else if (listedHosts > 1) {
                why = Missing.HostCount.Why.PARTIAL_DEVICE_LIST;
            } else if (!hints.namesFabric() && listed > 0 && ranks != null && listed < ranks) {
                why = Missing.HostCount.Why.PARTIAL_LIST_NO_LAUNCH;
            } else if (unstated == UnstatedHosts.ASSUME_ONE) {
                notes.add(new ResolveNote.HostsAssumedOne());
                return 1;
            } else {
                why = Missing.HostCount.Why.UNSTATED;
            }
            missing.add(new Missing.HostCount(why, listed, ranks, listedHosts, network.orElse(null)));
            return null;
        }

        /** The network between hosts a hint names: {@code inter}, or one interconnect of a fabric that joins hosts. */
        private Optional<NamedInterconnect> networkHint() {
            if (hints.inter() != null) {
                return Optional.of(NamedInterconnect.byUserAsInter(hints.inter()));
            }
            return Optional.ofNullable(hints.interconnect()).filter(this::joinsHosts).map(NamedInterconnect::byUser);
        }

        private boolean joinsHosts(String interconnect) {
            return facts.interconnect(interconnect).map(ic -> facts.topologyOf(ic).betweenHosts()).orElse(false);
        }

        private Integer perHost() {
            return ranks == null || hosts == null ? null : ranks / hosts;
        }

        /** The input states its tiers (a dataset's metadata, the project's JSON): kept, the counts filled in. */
        private Hardware asStated() {
            return new Hardware(gpu, ranks, hosts, stated.domainSize() != null ? stated.domainSize() : perHost(),
                    stated.domains() != null ? stated.domains() : hosts, stated.intra(), stated.inter());
        }

        /** Two tiers as the hints name them: NVLink domains of the stated size, else a host's GPUs. */
        private Hardware twoTiers() {
            Integer size = hints.domainSize() != null ? hints.domainSize() : perHost();
            if (ranks != null && size != null && ranks % size != 0) {
                throw new ResolveException(doc.name(), new Contradiction.UnevenDomains(ranks, size));
            }
            return new Hardware(gpu, ranks, hosts, size, ranks == null || size == null ? null : ranks / size,
                    hints.intra(), hints.inter());
        }

        /**
         * One interconnect (the hint's, else across hosts the network the log names), or none: across hosts it is
         * the network between them and the GPU name gives the fabric inside a host; on one host it is that fabric.
         */
        private Hardware oneFabric() {
            Optional<String> named = fabrics.intraFor(gpu);
            NamedInterconnect one = hints.inter() != null ? NamedInterconnect.byUserAsInter(hints.inter())
                    : hints.interconnect() != null ? NamedInterconnect.byUser(hints.interconnect())
                    : hosts != null && hosts > 1 ? doc.namedNetwork().map(NamedInterconnect::byLog).orElse(null)
                    : null;
            if (one == null) {
                return unnamed(named);
            }
            if (hosts == null) {
                // a network between hosts left the count missing (above); any other fabric is the one inside
                return new Hardware(gpu, ranks, null, null, null, joinsHosts(one.name()) ? null : one.name(),
                        joinsHosts(one.name()) ? one.name() : null);
            }
            if (hosts > 1) {
                Integer perHost = perHost();
                boolean several = perHost == null || perHost > 1;
                String intra = several ? named.orElse(null) : null;
                if (several && intra == null) {
                    missing.add(new Missing.FabricInsideHost(hosts, one, gpu));
                }
                notes.add(new ResolveNote.NetworkBetweenHosts(one, hosts, intra, gpu));
                if (!one.fromLog()) {
                    // one interconnect over a folder of logs may not fit every log in it: say where it won
                    doc.namedNetwork().filter(n -> !n.interconnect().equals(one.name()))
                            .ifPresent(n -> notes.add(new ResolveNote.LogNetworkOverridden(n, one.name())));
                }
                return new Hardware(gpu, ranks, hosts, perHost, hosts, intra, one.name());
            }
            if (named.isPresent() && !one.fromLog() && joinsHosts(one.name())) {
                notes.add(new ResolveNote.NetworkOnOneHost(one.name(), named.get(), gpu));
                return new Hardware(gpu, ranks, hosts, ranks, 1, named.get(), null);
            }
            return new Hardware(gpu, ranks, hosts, ranks, 1, one.name(), null);
        }

        /** No interconnect stated or named: on one host the GPU name's fabric; across hosts the network is missing. */
        private Hardware unnamed(Optional<String> named) {
            if (hosts == null || hosts == 1) {
                if (named.isPresent() && Objects.equals(hosts, 1)) {
                    notes.add(new ResolveNote.FabricFromGpuName(named.get(), gpu));
                    return new Hardware(gpu, ranks, hosts, ranks, 1, named.get(), null);
                }
                if (named.isEmpty()) {
                    missing.add(new Missing.Interconnect(hosts, perHost(), gpu));
                }
                return new Hardware(gpu, ranks, hosts, null, null, null, null);
            }
            Integer perHost = perHost();
            if (named.isEmpty()) {
                missing.add(new Missing.Interconnect(hosts, perHost, gpu));
            } else {
                missing.add(new Missing.Network(hosts, perHost, named.get(), gpu, doc.nicDevices()));
            }
            // the network bounds a ring's busbw across hosts: without it no tier is known to judge against
            return new Hardware(gpu, ranks, hosts, perHost, hosts, null, null);
        }
    }
}
