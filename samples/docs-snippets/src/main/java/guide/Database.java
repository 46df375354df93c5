package guide;

import java.util.List;

/** The reader's own blocking client in the guides' examples (a JDBC template, a driver). */
public interface Database {
    List<String> query(String sql);
}
