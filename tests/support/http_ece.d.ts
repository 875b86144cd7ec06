/** The part of `http_ece` (encrypted content-encoding, RFC 8188/8291) the push service stand-in uses. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  const ece: { decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer };
  export default ece;
}
