package org.lbsim.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lbsim.cli.ledger.Ledger.ClaimResult;
import org.lbsim.cli.ledger.Ledger.Status;

/** A figure's verdict from its claims': a claim not judged never counts as holding. */
class FigureStatusTest {

    /**
     * @param claims each claim as KIND:STATUS (S shape, M magnitude; m matches, d differs, n not
     *               judged, r not run), separated by spaces
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "S:m M:m, MATCHES",
            "S:m M:d, SHAPE_MATCHES",
            "S:d M:m, DIFFERS",
            "M:m M:d, DIFFERS",
            "S:n M:n, NOT_JUDGED",
            "S:r, NOT_JUDGED",
            // one judged claim holding says nothing of those not judged
            "S:m S:n S:n, NOT_JUDGED",
            "M:m M:n, NOT_JUDGED",
            // every shape judged and holding: the shape matches whatever magnitudes are missing
            "S:m M:n, SHAPE_MATCHES",
            "S:m M:d M:n, SHAPE_MATCHES",
            // a judged shape that fails is a difference whatever is still unjudged
            "S:d S:n, DIFFERS",
            "M:d M:n, DIFFERS",
            "S:m S:n M:d, NOT_JUDGED",
    })
    void a_figure_matches_only_on_claims_that_were_judged(String claims, Status expected) {
        List<ClaimResult> results = new ArrayList<>();
        int i = 0;
        for (String c : claims.split(" ")) {
            FigureDef.ClaimKind kind = c.charAt(0) == 'S' ? FigureDef.ClaimKind.SHAPE : FigureDef.ClaimKind.MAGNITUDE;
            Status status = switch (c.charAt(2)) {
                case 'm' -> Status.MATCHES;
                case 'd' -> Status.DIFFERS;
                case 'n' -> Status.NOT_JUDGED;
                default -> Status.NOT_RUN;
            };
            results.add(new ClaimResult(new FigureDef.ClaimDef("c" + i++, kind, "", "", "", null), Map.of(), "", status));
        }
        assertThat(Ledger.figureStatus(results)).isEqualTo(expected);
    }
}
