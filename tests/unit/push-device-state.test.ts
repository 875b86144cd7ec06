import { describe, expect, it } from "vitest";
import { shownDeviceState } from "@/lib/notifications/push/client";

/**
 * What the settings say of this device: 'on' only while the server sends to it too. A browser
 * keeps its subscription after the session it was made under ended (another sign-in over it):
 * the server no longer sends there, so it reads 'off', and 'Turn on' stores it again.
 */
describe("this device's push, as the settings show it", () => {
  it("is on only while the server lists this device", () => {
    expect(shownDeviceState("on", [{ thisDevice: false }, { thisDevice: true }])).toBe("on");
    expect(shownDeviceState("on", [{ thisDevice: false }])).toBe("off");
    expect(shownDeviceState("on", [])).toBe("off");
  });

  it("keeps what the browser says otherwise", () => {
    expect(shownDeviceState("denied", [])).toBe("denied");
    expect(shownDeviceState("unsupported", [{ thisDevice: true }])).toBe("unsupported");
    expect(shownDeviceState("off", [{ thisDevice: true }])).toBe("off");
  });
});
