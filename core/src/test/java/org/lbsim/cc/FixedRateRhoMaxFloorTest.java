package org.lbsim.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lbsim.kernel.Time;
import org.lbsim.scenario.ScenarioException;
import org.lbsim.spi.CongestionControl;
import org.lbsim.spi.QpContext;

/**
 * Rates are kept in whole Mb/s: a rho_max sender whose rho_max (OFAN App. A) is below 1 Mb/s, at the start
 * or after routing converged around a failure, is refused naming the field, not paced at 0 Mb/s.
 */
class FixedRateRhoMaxFloorTest {
    private static QpContext qp(long rhoMaxMbps) {
        return new QpContext(0, 0, 1, 64 * 4096L, 64, 4096, 62, 20, 800_000, Time.ns(6253), rhoMaxMbps, 0, 0.5);
    }

    private static CongestionControl rhoMaxSender(boolean recompute, long rhoMaxMbps) {
        return FixedRate.factory(new FixedRate.Params(true, 0, true, recompute)).create(qp(rhoMaxMbps));
    }

    @Test
    void aRhoMaxBelowOneMegabitAtTheStartIsRefusedOneMegabitPaces() {
        assertThatThrownBy(() -> rhoMaxSender(true, 0)).isInstanceOfSatisfying(ScenarioException.class,
                e -> assertThat(e.field()).isEqualTo("congestionControl.rhoMax"));
        CongestionControl slowest = rhoMaxSender(true, 1);
        assertThat(slowest.rateMbps()).isEqualTo(1);
        long firstPs = slowest.earliestSendPs(0, 0);
        slowest.onSent(4158, firstPs);
        assertThat(slowest.earliestSendPs(firstPs, 4096)).isEqualTo(firstPs + Time.serializationPs(4158 + 20, 1));
    }

    @Test
    void aRecomputedRhoMaxBelowOneMegabitIsRefusedNamingWhenRoutingConverged() {
        CongestionControl cc = rhoMaxSender(true, 400_000);
        assertThatThrownBy(() -> cc.onRhoMaxChange(0, Time.us(5))).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.field()).isEqualTo("congestionControl.recomputeRhoMax");
            assertThat(e.problem()).startsWith("routing converged at 5 us around the failures");
        });
        cc.onRhoMaxChange(1, Time.us(6));
        assertThat(cc.rateMbps()).isEqualTo(1);
    }

    @Test
    void aSenderThatKeepsItsRateIgnoresARhoMaxBelowOneMegabit() {
        CongestionControl cc = rhoMaxSender(false, 400_000);
        cc.onRhoMaxChange(0, Time.us(5));
        assertThat(cc.rateMbps()).isEqualTo(400_000);
    }
}
