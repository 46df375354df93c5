package dev.forage.interop;

import dev.forage.ForageLatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The latches of the threads waiting for one thing to happen (a task to finish, a future to complete, an
 * executor to drain): a Treiber stack that {@link #releaseAll()} sets and then seals, so that a latch pushed
 * later is set at once. Each waiter owns its latch, so the release wakes exactly the waiters (on a pool
 * worker: the targeted wake-up of a {@link ForageLatch}). A waiter that gives up (timeout, interrupt)
 * {@linkplain #remove removes} its node, so repeated timed waits do not pile up (as {@code FutureTask} does).
 */
final class LatchStack {
    private static final Node RELEASED = new Node(null);
    private static final AtomicReferenceFieldUpdater<LatchStack, Node> HEAD =
            AtomicReferenceFieldUpdater.newUpdater(LatchStack.class, Node.class, "head");

    /** Null (nobody waits), the newest waiter, or {@link #RELEASED}. */
    private volatile Node head;

    /** A stack released when {@code future} completes (one dependent action, however many waiters). */
    static LatchStack releasedWhenDone(CompletableFuture<?> future) {
        final LatchStack stack = new LatchStack();
        future.whenComplete((value, error) -> stack.releaseAll());
        return stack;
    }

    boolean isReleased() {
        return head == RELEASED;
    }

    /** Adds a waiter's latch; returns its node, or null if already released (the latch is set then). */
    Node push(ForageLatch latch) {
        Node node = new Node(latch);
        while (true) {
            Node h = head;
            if (h == RELEASED) {
                latch.set();
                return null;
            }
            node.next = h;
            if (HEAD.compareAndSet(this, h, node)) {
                return node;
            }
        }
    }

    /** A waiter gave up: forget its latch and unlink every forgotten node (FutureTask.removeWaiter's way). */
    void remove(Node node) {
        if (node == null) {
            return;
        }
        node.latch = null;
        retry:
        while (true) {
            Node pred = null;
            Node q = head;
            if (q == RELEASED) {
                return; // released: the whole stack is garbage
            }
            while (q != null) {
                Node s = q.next;
                if (q.latch != null) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = s;
                    if (pred.latch == null) {
                        continue retry; // pred was removed meanwhile: our unlink may have been lost
                    }
                } else if (!HEAD.compareAndSet(this, q, s)) {
                    continue retry;
                }
                q = s;
            }
            return;
        }
    }

    /** Sets every waiter's latch and seals the stack. Idempotent; any thread. */
    void releaseAll() {
        Node h = HEAD.getAndSet(this, RELEASED);
        for (; h != null && h != RELEASED; h = h.next) {
            ForageLatch latch = h.latch;
            if (latch != null) {
                latch.set();
            }
        }
    }

    static final class Node {
        volatile ForageLatch latch;
        volatile Node next;

        Node(ForageLatch latch) {
            this.latch = latch;
        }
    }
}
