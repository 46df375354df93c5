package dev.forage.internal.deque;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The pool's injector: an unbounded multi-producer, multi-consumer FIFO of jobs that came from outside the
 * pool. <b>Internal</b>: not part of Forage's API.
 *
 * <p>A Michael-Scott linked queue. {@link #push} publishes a node with a CAS on the last node's {@code next}
 * (a volatile write); {@link #isEmpty()} reads {@code head.next} with a volatile read. The sleep protocol's
 * fence pair relies on exactly these two accesses being volatile: see {@code docs/sleep.md}, "PushFence and
 * SleepFence", and the jcstress test {@code InjectorVsSleeper}.
 */
public final class Injector {
    private static final AtomicReferenceFieldUpdater<Injector, Node> HEAD =
            AtomicReferenceFieldUpdater.newUpdater(Injector.class, Node.class, "head");
    private static final AtomicReferenceFieldUpdater<Injector, Node> TAIL =
            AtomicReferenceFieldUpdater.newUpdater(Injector.class, Node.class, "tail");

    /** A sentinel whose {@code next} is the first job's node. */
    private volatile Node head;
    /** The last node, or a node close to it (the tail may lag by one). */
    private volatile Node tail;

    public Injector() {
        Node sentinel = new Node(null);
        head = sentinel;
        tail = sentinel;
    }

    /** Any thread. Appends a job. */
    public void push(Runnable job) {
        Node node = new Node(job);
        while (true) {
            Node last = tail;
            Node next = last.next;
            if (next == null) {
                if (Node.NEXT.compareAndSet(last, null, node)) {
                    // Swinging the tail may fail if another thread helped: either way it moved past us.
                    TAIL.compareAndSet(this, last, node);
                    return;
                }
            } else {
                TAIL.compareAndSet(this, last, next);
            }
        }
    }

    /** Any thread. Removes and returns the oldest job, or {@code null} when empty. */
    public Runnable poll() {
        while (true) {
            Node first = head;
            Node next = first.next;
            if (next == null) {
                return null;
            }
            Node last = tail;
            if (first == last) {
                // The tail lags behind a published node: help it along before moving head past it.
                TAIL.compareAndSet(this, last, next);
                continue;
            }
            if (HEAD.compareAndSet(this, first, next)) {
                Runnable job = next.job;
                // next becomes the new sentinel: drop its job so the queue does not keep it reachable.
                next.job = null;
                first.next = first; // self-link: helps the GC; no reader follows a node that left the queue
                return job;
            }
        }
    }

    /** Any thread. A volatile read of the first node: the read side of the sleep protocol's fence pair. */
    public boolean isEmpty() {
        return head.next == null;
    }

    static final class Node {
        static final AtomicReferenceFieldUpdater<Node, Node> NEXT =
                AtomicReferenceFieldUpdater.newUpdater(Node.class, Node.class, "next");

        Runnable job;
        volatile Node next;

        Node(Runnable job) {
            this.job = job;
        }
    }
}
