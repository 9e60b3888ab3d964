package org.lbsim.scenario;

/**
 * Priority flow control (IEEE 802.1Qbb) on every switch ingress: when the bytes that arrived on an
 * ingress port and still sit in the switch exceed XOFF, the switch pauses the upstream sender; it
 * resumes it below XON. Lossless: switches no longer drop at egress; the headroom above XOFF absorbs
 * what is already on the wire when the pause lands.
 */
public record PfcSpec(
        @Doc("pause upstream ports when an ingress exceeds XOFF (lossless fabric)") boolean enabled,
        @Doc("static XOFF threshold in bytes per ingress port") long xoffBytes,
        @Doc("XON threshold in bytes per ingress port (resume below it)") long xonBytes,
        @Doc("dynamic XOFF = alpha x free shared buffer (needs a shared-dynamic buffer); 0 = static thresholds") double dynamicAlpha,
        @Doc("bytes per ingress above XOFF reserved for frames in flight when the pause lands") long headroomBytes,
        @Doc("microseconds without any delivery, while paused queues hold packets, before the run is checked for a PFC deadlock") double deadlockCheckUs) {

    public PfcSpec {
        ScenarioException.require(xoffBytes >= 1, "xoffBytes", "must be >= 1 byte, got " + xoffBytes);
        ScenarioException.require(xonBytes >= 0 && xonBytes <= xoffBytes, "xonBytes", "must be between 0 and xoffBytes (" + xoffBytes + "), got " + xonBytes);
        ScenarioException.require(dynamicAlpha >= 0 && Double.isFinite(dynamicAlpha), "dynamicAlpha", "must be >= 0 (0 = static), got " + dynamicAlpha);
        ScenarioException.require(headroomBytes >= 0, "headroomBytes", "must be >= 0, got " + headroomBytes);
        Checks.periodUs(deadlockCheckUs, "deadlockCheckUs");
    }

    public static PfcSpec defaults() {
        return new PfcSpec(false, 200_000, 180_000, 0, 120_000, 100);
    }
}
