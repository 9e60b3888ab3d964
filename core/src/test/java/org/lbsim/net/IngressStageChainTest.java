package org.lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link IngressStage#chain}: {@link IngressStage#PASS} adds no stage on either side; two real stages run in order, the second only on what the first lets through. */
class IngressStageChainTest {
    private final List<String> ran = new ArrayList<>();

    private IngressStage stage(String name, boolean lets) {
        return (p, port) -> {
            ran.add(name + ":" + p.psn + "@" + port);
            return lets;
        };
    }

    @Test
    void passOnEitherSideLeavesTheOtherStageItself() {
        IngressStage s = stage("s", true);
        assertThat(IngressStage.chain(IngressStage.PASS, s)).isSameAs(s);
        assertThat(IngressStage.chain(s, IngressStage.PASS)).isSameAs(s);
        assertThat(IngressStage.chain(IngressStage.PASS, IngressStage.PASS)).isSameAs(IngressStage.PASS);
    }

    @Test
    void theSecondStageSeesOnlyWhatTheFirstLetsThrough() {
        Packet p = new PacketPool().acquire();
        p.psn = 5;
        assertThat(IngressStage.chain(stage("a", true), stage("b", false)).onIngress(p, 3)).isFalse();
        assertThat(ran).containsExactly("a:5@3", "b:5@3");
        ran.clear();
        assertThat(IngressStage.chain(stage("a", false), stage("b", true)).onIngress(p, 4)).isFalse();
        assertThat(ran).containsExactly("a:5@4");
        ran.clear();
        assertThat(IngressStage.chain(stage("a", true), stage("b", true)).onIngress(p, 1)).isTrue();
        assertThat(ran).containsExactly("a:5@1", "b:5@1");
    }
}
