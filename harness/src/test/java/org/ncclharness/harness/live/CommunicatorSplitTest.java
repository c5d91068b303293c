package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NCCL_TESTS_SPLIT as nccl-tests' MPI_Comm_split: colours, positions, one unique id per colour. */
class CommunicatorSplitTest {

    /** What the job's gather returns when each colour's first process sent {@code id<rank>} and the rest nothing. */
    private static List<byte[]> gathered(SplitRule rule, int processes) {
        List<byte[]> out = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            long c = rule.colour(p);
            out.add(seen.contains(c) ? new byte[0] : ("id" + p).getBytes());
            seen.add(c);
        }
        return out;
    }

    private static CommunicatorSplit split(int rank, int processes, SplitRule rule) {
        List<byte[]> all = gathered(rule, processes);
        return CommunicatorSplit.of(rank, processes, rule::colour, mine -> {
            assertThat(mine).as("what rank %d sends", rank).isEqualTo(all.get(rank));
            return all;
        }, () -> ("id" + rank).getBytes());
    }

    @Test
    void modTwoPairsEvenAndOddProcessesEachUnderItsFirstProcesssId() {
        SplitRule mod2 = SplitRule.fromEnvironment(Map.of("NCCL_TESTS_SPLIT", "MOD 2"));
        CommunicatorSplit five = split(5, 8, mod2);
        assertThat(five.colour()).isEqualTo(1);
        assertThat(five.processInColour()).isEqualTo(2); // odd processes 1, 3, 5, 7
        assertThat(five.processesInColour()).isEqualTo(4);
        assertThat(new String(five.uniqueId())).isEqualTo("id1");
        assertThat(five.nranks(2)).isEqualTo(8);
        assertThat(five.firstRank(2)).isEqualTo(4);
        assertThat(new String(split(6, 8, mod2).uniqueId())).isEqualTo("id0");
    }

    @Test
    void divGroupsConsecutiveProcessesAndNoSplitIsOneCommunicatorOverAll() {
        SplitRule div4 = SplitRule.fromEnvironment(Map.of("NCCL_TESTS_SPLIT", "DIV 4"));
        CommunicatorSplit six = split(6, 8, div4);
        assertThat(six.colour()).isEqualTo(1);
        assertThat(six.processInColour()).isEqualTo(2);
        assertThat(new String(six.uniqueId())).isEqualTo("id4");
        CommunicatorSplit all = split(3, 4, SplitRule.none());
        assertThat(all.processesInColour()).isEqualTo(4);
        assertThat(all.firstRank(1)).isEqualTo(3);
        assertThat(new String(all.uniqueId())).isEqualTo("id0");
    }

    @Test
    void aColourWhoseFirstProcessSentNoIdIsAnErrorNotAHang() {
        List<byte[]> none = List.of(new byte[0], new byte[0]);
        assertThatThrownBy(() -> CommunicatorSplit.of(1, 2, SplitRule.none()::colour, mine -> none, () -> new byte[0]))
                .hasMessageContaining("rank 0, first of colour 0, sent no unique id");
    }

    @Test
    void theHeadingSaysHowManyCommunicatorsRanOnlyWhenSplit() {
        List<String> heading = new ArrayList<>();
        LiveSweep.splitHeading(SplitRule.none(), 4, heading);
        assertThat(heading).isEmpty();
        LiveSweep.splitHeading(SplitRule.fromEnvironment(Map.of("NCCL_TESTS_SPLIT_MASK", "0x1")), 5, heading);
        assertThat(heading).containsExactly("# NCCL_TESTS_SPLIT AND 1: 2 communicator(s), processes per colour"
                + " {0=3, 1=2}; each row is the mean over all of them, as nccl-tests reports it");
    }
}
