package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** Reads written images back the way a viewer would, and says what is in them. */
public final class Images {

    private Images() {
    }

    /** Decodes a PNG with ImageIO; fails the test when it is not a PNG image. */
    public static BufferedImage readPng(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            assertThat(in.readNBytes(8)).as("PNG signature of " + file)
                    .containsExactly(0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a);
        }
        BufferedImage img = ImageIO.read(file.toFile());
        assertThat(img).as("ImageIO decodes " + file).isNotNull();
        return img;
    }

    /** The number of distinct RGB values, counted up to {@code cap}. */
    public static int distinctColours(BufferedImage img, int cap) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                seen.add(img.getRGB(x, y) & 0xffffff);
                if (seen.size() >= cap) {
                    return cap;
                }
            }
        }
        return seen.size();
    }

    /** Pixels of exactly this colour (marker centres and line cores are drawn unblended). */
    static int pixelsOf(BufferedImage img, Color c) {
        int rgb = c.getRGB() & 0xffffff;
        int n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if ((img.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Parses an SVG as XML without fetching its DTD (the document names the W3C one). */
    public static Document parseSvg(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setExpandEntityReferences(false);
        Document doc = f.newDocumentBuilder().parse(file.toFile());
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        return doc;
    }

    /** The text of every {@code <text>} element, in document order. */
    public static List<String> texts(Document svg) {
        NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }
}
