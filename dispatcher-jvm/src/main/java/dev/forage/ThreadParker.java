package dev.forage;

import java.util.concurrent.locks.LockSupport;

/** The default {@link Parker}: {@code LockSupport.park}/{@code unpark} on the bound thread. */
final class ThreadParker extends Parker {
    /** Written by the owner before the protocol publishes that it may block; read by wakers after they see that. */
    private volatile Thread thread;

    /** One parker per worker slot (none for a count below one: the protocol reports the bad count). */
    static Parker[] forWorkers(int workers) {
        Parker[] parkers = new Parker[Math.max(workers, 0)];
        for (int i = 0; i < parkers.length; i++) {
            parkers[i] = new ThreadParker();
        }
        return parkers;
    }

    @Override
    public void bindCurrentThread() {
        Thread current = Thread.currentThread();
        if (thread != current) {
            thread = current; // the common case writes nothing: a worker's thread never changes
        }
    }

    @Override
    public void park(long nanos) {
        if (nanos == FOREVER) {
            LockSupport.park(this);
        } else if (nanos > 0) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    @Override
    public void unpark() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public boolean eventsFound() {
        return false;
    }

    @Override
    public String toString() {
        Thread t = thread;
        return "ThreadParker[" + (t == null ? "unbound" : t.getName()) + "]";
    }
}
