package org.ccl4j.internal;

import java.lang.foreign.Arena;
import java.util.function.Function;

/** A shared arena that the object made in it owns (a table that closes it), closed again if making it fails. */
public final class OwnedArena {
    private OwnedArena() {}

    public static <T> T make(Function<Arena, T> maker) {
        Arena owned = Arena.ofShared();
        try {
            return maker.apply(owned);
        } catch (RuntimeException | Error e) {
            owned.close();
            throw e;
        }
    }
}
