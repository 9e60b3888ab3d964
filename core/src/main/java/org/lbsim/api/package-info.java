/**
 * lbsim as a Java library: {@link org.lbsim.api.Lbsim#scenario()} builds a scenario fluently (bound
 * and validated exactly as a YAML file on the command line), and {@link org.lbsim.api.Catalog} lists
 * and explains everything a scenario can name, read from the registries and the scenario records.
 * Nothing else in core depends on this package.
 */
package org.lbsim.api;
