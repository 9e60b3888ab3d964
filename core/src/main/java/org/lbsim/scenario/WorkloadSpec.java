package org.lbsim.scenario;

/** The traffic of a run. */
public sealed interface WorkloadSpec permits WorkloadSpec.Permutation, WorkloadSpec.AllToAll, WorkloadSpec.Trace {

    static WorkloadSpec defaults() {
        return new Permutation(4L << 20, 0);
    }

    @TypeName("permutation")
    @Doc("random derangement: every host sends one message to one other host and receives one")
    record Permutation(
            @Doc("bytes per message") long messageBytes,
            @Doc("hosts taking part (0 = all)") int hosts) implements WorkloadSpec {
        public Permutation {
            ScenarioException.require(messageBytes >= 1, "messageBytes", "must be >= 1 byte, got " + messageBytes);
            ScenarioException.require(hosts == 0 || hosts >= 2, "hosts", "must be 0 (all hosts) or >= 2, got " + hosts);
        }

        public static Permutation defaults() {
            return new Permutation(4L << 20, 0);
        }
    }

    @TypeName("all-to-all")
    @Doc("every host sends one message to every other host, all at once")
    record AllToAll(
            @Doc("bytes per host pair") long messageBytes,
            @Doc("hosts taking part (0 = all)") int hosts) implements WorkloadSpec {
        public AllToAll {
            ScenarioException.require(messageBytes >= 1, "messageBytes", "must be >= 1 byte, got " + messageBytes);
            ScenarioException.require(hosts == 0 || hosts >= 2, "hosts", "must be 0 (all hosts) or >= 2, got " + hosts);
        }

        /** OFAN's all-to-all: 1 MiB per pair, every host. */
        public static AllToAll defaults() {
            return new AllToAll(1L << 20, 0);
        }
    }

    @TypeName("trace")
    @Doc("flows from a CSV file with header src,dst,bytes,start_ns (hosts by index); a relative path is resolved against the scenario file")
    record Trace(@Doc("path of the CSV file") String file) implements WorkloadSpec {
        public Trace {
            ScenarioException.require(file != null && !file.isBlank(), "file", "is required (path of a CSV with columns src,dst,bytes,start_ns)");
        }
    }
}
