package org.lbsim.scenario;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value an integer key of a record without {@code defaults()} (every other key required, as in a
 * custom topology) takes when a scenario leaves it out: a key added later stays optional, so older
 * files still bind.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
public @interface IntDefault {
    int value();
}
