import type { MetadataRoute } from "next";

/** The web app manifest, so the product installs on a phone's home screen (icons in public/). */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Two of Us",
    short_name: "Two of Us",
    description: "The social network for couples without children.",
    start_url: "/dashboard",
    display: "standalone",
    background_color: "#fdf8f6",
    theme_color: "#b4235a",
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
