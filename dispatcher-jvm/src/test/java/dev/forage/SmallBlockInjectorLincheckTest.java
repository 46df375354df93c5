package dev.forage;

/**
 * The injector's model checking again with blocks of one slot (block size 2): every push installs a block and
 * every poll moves the head to the next one, so the threads meet where one installs a block and the others wait
 * for it, which the default 63-slot blocks reach only once per 63 jobs.
 */
public class SmallBlockInjectorLincheckTest extends InjectorLincheckTest {
    @Override
    protected Injector newInjector() {
        return new Injector(2);
    }

    @Override
    protected Class<? extends Spec> spec() {
        return OneSlotSpec.class;
    }

    /** The specification with one slot per block: a batch poll takes one job. */
    public static final class OneSlotSpec extends Spec {
        public OneSlotSpec() {
            super(2);
        }
    }
}
