package dev.forage;

/**
 * The injector's model checking with blocks of three slots (block size 4): a batch poll of two takes a block's
 * last slot and moves the head to the next block, or is cut short by the block's end, within a few jobs; with the
 * default 63-slot blocks the scenarios never get there.
 */
public class ThreeSlotInjectorLincheckTest extends InjectorLincheckTest {
    @Override
    protected Injector newInjector() {
        return new Injector(4);
    }

    @Override
    protected Class<? extends Spec> spec() {
        return ThreeSlotSpec.class;
    }

    /** The specification with three slots per block. */
    public static final class ThreeSlotSpec extends Spec {
        public ThreeSlotSpec() {
            super(4);
        }
    }
}
