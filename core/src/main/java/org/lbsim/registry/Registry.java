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

    public List<String> names() {
        return components.stream().map(Component::name).toList();
    }
}
