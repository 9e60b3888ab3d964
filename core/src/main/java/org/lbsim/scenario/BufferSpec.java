package org.lbsim.scenario;

/** How a switch's packet memory is shared between its egress ports. */
public sealed interface BufferSpec permits BufferSpec.PerPort, BufferSpec.SharedDynamic {

    static BufferSpec defaults() {
        return new PerPort(800_000);
    }

    /** Whether the ports of a switch share one buffer (so a port's share depends on the others' use). */
    boolean shared();

    /** {@code cases}' answer for this kind of buffer. */
    <R> R match(Cases<R> cases);

    /** Something done differently for each kind of buffer, such as building its model; a new kind fails to compile until handled. */
    interface Cases<R> {
        R perPort(PerPort p);

        R sharedDynamic(SharedDynamic s);
    }

    @TypeName("per-port")
    @Doc("a fixed drop-tail buffer per egress port")
    record PerPort(@Doc("bytes per egress port") long bytesPerPort) implements BufferSpec {
        public PerPort {
            ScenarioException.require(bytesPerPort >= 64, "bytesPerPort", "must be >= 64 bytes, got " + bytesPerPort);
        }

        @Override
        public boolean shared() {
            return false;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.perPort(this);
        }
    }

    @TypeName("shared-dynamic")
    @Doc("one buffer per switch shared by its ports under the Choudhury-Hahne dynamic threshold: a port may queue up to alpha x (free memory)")
    record SharedDynamic(
            @Doc("total bytes per switch") long totalBytes,
            @Doc("dynamic threshold factor alpha (> 0)") double alpha) implements BufferSpec {
        public SharedDynamic {
            ScenarioException.require(totalBytes >= 64, "totalBytes", "must be >= 64 bytes, got " + totalBytes);
            ScenarioException.require(alpha > 0 && Double.isFinite(alpha), "alpha", "must be a positive number, got " + alpha);
        }

        /** A 64 MB switch (Themis' setting) with alpha 1. */
        public static SharedDynamic defaults() {
            return new SharedDynamic(64_000_000, 1);
        }

        @Override
        public boolean shared() {
            return true;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.sharedDynamic(this);
        }
    }
}
