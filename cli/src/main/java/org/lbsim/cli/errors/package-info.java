/**
 * How a command ends: its exit code, bad input as one line per error, internal errors, and the
 * escaping that keeps a message on one line. Every other package of the command line reports through
 * it; it depends on none of them.
 */
package org.lbsim.cli.errors;
