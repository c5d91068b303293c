package org.ncclharness.calibration.resolve;

import org.ncclharness.calibration.advice.Setting;

/** What makes a run's facts impossible: a hint against the input, or counts that do not divide. */
public sealed interface Contradiction {

    /** A count the input states, and another the user states. */
    record CountsDiffer(Setting fact, int stated, int hinted) implements Contradiction { }

    /** A rate the input states (one NIC's, in GB/s), and another the user states. */
    record RatesDiffer(Setting fact, double statedGBps, double hintedGBps) implements Contradiction { }

    /** A count below one, from the input or from the user. */
    record CountBelowOne(Setting fact, int value, boolean hinted) implements Contradiction { }

    /** The ranks do not split evenly over the hosts. */
    record UnevenHosts(int ranks, int hosts) implements Contradiction { }

    /** The ranks do not split into NVLink domains of the stated size. */
    record UnevenDomains(int ranks, int domainSize) implements Contradiction { }
}
