package org.lbsim.registry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable, ordered set of components of one kind, looked up by name, with what each declares
 * ({@link Capability}).
 */
public final class Registry<T> {
    private final String kind;
    private final Set<Capability> declarable;
    private final List<Component<T>> components;

    /**
     * @param declarable the capabilities a component of this kind may declare; when they include the
     *                   granularities ({@link Capability#GRANULARITIES}), each component declares exactly one
     */
    @SafeVarargs
    public Registry(String kind, Set<Capability> declarable, Component<T>... components) {
        this.kind = kind;
        this.declarable = Set.copyOf(declarable);
        List<Component<T>> list = new ArrayList<>();
        for (Component<T> c : components) {
            for (Capability d : c.capabilities()) {
                if (!declarable.contains(d)) {
                    throw new IllegalArgumentException(kind + " " + c.name() + " declares " + d.label() + ", which a " + kind + " cannot");
                }
            }
            if (declarable.containsAll(Capability.GRANULARITIES)
                    && Capability.GRANULARITIES.stream().filter(c::has).count() != 1) {
                throw new IllegalArgumentException(kind + " " + c.name() + " must declare exactly one granularity of "
                        + Capability.GRANULARITIES.stream().map(Capability::label).toList());
            }
            for (Component<T> other : list) {
                if (other.name().equals(c.name())) {
                    throw new IllegalArgumentException("duplicate " + kind + " name " + c.name());
                }
                if (other.displayName().equals(c.displayName())) {
                    throw new IllegalArgumentException("duplicate " + kind + " display name " + c.displayName());
                }
            }
            list.add(c);
        }
        this.components = Collections.unmodifiableList(list);
    }

    public String kind() {
        return kind;
    }

    public List<Component<T>> all() {
        return components;
    }

    /** What a component of this kind may declare. */
    public Set<Capability> declarable() {
        return declarable;
    }

    /** The names of the components that declare {@code capability}, in registry order. */
    public List<String> namesDeclaring(Capability capability) {
        return components.stream().filter(c -> c.has(capability)).map(Component::name).toList();
    }

    /** Whether {@code name} is registered and declares {@code capability}. */
    public boolean declares(String name, Capability capability) {
        return find(name).map(c -> c.has(capability)).orElse(false);
    }

    public Optional<Component<T>> find(String name) {
        for (Component<T> c : components) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The name figures and listings give {@code name} ({@code HOST PKT} for {@code host-spray}), or empty if none is registered. */
    public Optional<String> displayName(String name) {
        return find(name).map(Component::displayName);
    }

    public List<String> names() {
        return components.stream().map(Component::name).toList();
    }
}
