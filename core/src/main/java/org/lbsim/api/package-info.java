/**
 * lbsim as a Java library, and the command line's one door to the engine.
 *
 * <p>{@link org.lbsim.api.Lbsim} binds a scenario tree with {@code --set} assignments and a seed, checks it with its
 * {@link org.lbsim.api.RunOptions} and prepares a {@link org.lbsim.api.Run}; {@link org.lbsim.api.Lbsim#scenario()}
 * builds a scenario fluently (bound and validated exactly as a YAML file on the command line);
 * {@link org.lbsim.api.Catalog} lists and explains everything a scenario can name, read from the registries and the
 * scenario records; {@link org.lbsim.api.ScenarioText} and {@link org.lbsim.api.FieldPath} are how inputs are read and
 * errors worded, for readers that must agree with the binder.
 *
 * <p>Its input and output types are those of two packages used directly: {@code org.lbsim.scenario} (the validated
 * scenario records, {@code ScenarioException}, {@code TraceFormatException}) and {@code org.lbsim.metrics} (a run's
 * results). The command line depends on core only through these three packages ({@code CliArchitectureTest}).
 * Nothing else in core depends on this package.
 */
package org.lbsim.api;
