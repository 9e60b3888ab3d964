package org.lbsim.cli.plot;

/** Bad input to a figure or report (an unknown column, an unreadable file, no matching runs): one line for the user. */
public final class PlotException extends RuntimeException {
    public PlotException(String message) {
        super(message, null, false, false);
    }

    public PlotException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
