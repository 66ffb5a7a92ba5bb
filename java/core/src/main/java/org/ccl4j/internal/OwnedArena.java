package org.ccl4j.internal;

import java.lang.foreign.Arena;
import java.lang.ref.Cleaner;
import java.util.function.Function;

/**
 * A shared arena that the objects made in it own (a statistics table and the labels that come with
 * it): freed by {@link #close()}, the documented way, or else once no object that holds it is
 * reachable, so that a table its caller forgot to close does not keep its memory for good.
 */
public final class OwnedArena implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Arena arena = Arena.ofShared();
    private final Cleaner.Cleanable cleanable;

    private OwnedArena() {
        Arena memory = arena;  // the action must not hold this object, or it would never be unreachable
        cleanable = CLEANER.register(this, memory::close);
    }

    /** Makes an object in a new owned arena, which is closed again if making it fails. */
    public static <T> T make(Function<OwnedArena, T> maker) {
        OwnedArena owned = new OwnedArena();
        try {
            return maker.apply(owned);
        } catch (RuntimeException | Error e) {
            owned.close();
            throw e;
        }
    }

    public Arena arena() {
        return arena;
    }

    /** Frees the memory now; closing twice does nothing. */
    @Override
    public void close() {
        cleanable.clean();
    }
}
