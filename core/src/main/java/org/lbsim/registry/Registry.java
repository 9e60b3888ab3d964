package org.lbsim.registry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** An immutable, ordered set of components of one kind, looked up by name. */
public final class Registry<T> {
    private final String kind;
    private final List<Component<T>> components;

    @SafeVarargs
    public Registry(String kind, Component<T>... components) {
        this.kind = kind;
        List<Component<T>> list = new ArrayList<>();
        for (Component<T> c : components) {
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
