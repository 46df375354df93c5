package dev.forage.release;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** One POM of the bundle, queried by XPath (the parser ignores namespaces, so paths read /project/name). */
final class Pom {
    private final Document doc;
    private final XPath xpath = XPathFactory.newInstance().newXPath();
    final String text;

    Pom(byte[] bytes) {
        text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
        } catch (Exception e) {
            throw new IllegalArgumentException("not a well-formed POM: " + e, e);
        }
    }

    /** The trimmed text at {@code path}, or "" if there is no such element. */
    String get(String path) {
        try {
            return ((String) xpath.evaluate(path, doc, XPathConstants.STRING)).trim();
        } catch (XPathExpressionException e) {
            throw new IllegalArgumentException(path, e);
        }
    }

    /** The text at the first of {@code paths} that has any, or "". */
    String get(String... paths) {
        for (String path : paths) {
            String value = get(path);
            if (!value.isEmpty()) return value;
        }
        return "";
    }

    /** The trimmed texts of every node at {@code path}. */
    List<String> all(String path) {
        try {
            NodeList nodes = (NodeList) xpath.evaluate(path, doc, XPathConstants.NODESET);
            List<String> values = new ArrayList<>();
            for (int i = 0; i < nodes.getLength(); i++) {
                Node n = nodes.item(i);
                values.add(n.getTextContent().trim());
            }
            return values;
        } catch (XPathExpressionException e) {
            throw new IllegalArgumentException(path, e);
        }
    }

    String packaging() {
        String p = get("/project/packaging");
        return p.isEmpty() ? "jar" : p;
    }
}
