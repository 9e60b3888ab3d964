package org.lbsim.net;

/**
 * Whether a frame may join an egress queue, and who hears of its bytes coming and going: the
 * switch's buffer alone in a lossy fabric ({@link #byBuffer}), or PFC's per-ingress accounting in a
 * lossless one ({@link PfcIngress}). One kind per run, so the port's call sites stay monomorphic.
 */
interface Admission {
    boolean admit(int ingressPort, long portQueueBytes, int size);

    /** A packet a switch held and releases now ({@link EgressPort#enqueueReleased}); by default as any packet. */
    default boolean admitReleased(int ingressPort, long portQueueBytes, int size) {
        return admit(ingressPort, portQueueBytes, size);
    }

    void onAdmit(int ingressPort, int size);

    void onRelease(int ingressPort, int size);

    /** Drop-tail against the switch's buffer model; nothing to account per ingress. */
    static Admission byBuffer(BufferModel buffer) {
        return new ByBuffer(buffer);
    }

    final class ByBuffer implements Admission {
        private final BufferModel buffer;

        private ByBuffer(BufferModel buffer) {
            this.buffer = buffer;
        }

        @Override
        public boolean admit(int ingressPort, long portQueueBytes, int size) {
            return buffer.admit(portQueueBytes, size);
        }

        @Override
        public void onAdmit(int ingressPort, int size) {
        }

        @Override
        public void onRelease(int ingressPort, int size) {
        }
    }
}
