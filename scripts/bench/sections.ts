/**
 * The sections of `npm run bench`, by the name BENCH_SECTIONS picks them with, in the order they
 * run. A section is a file of its own in scripts/bench/ exporting an async function that prints
 * its figures and answers how many requests failed (0 when all went well); it takes what it needs
 * from the shared parts (config, databases, server, load, client, report). Adding one is that
 * file and one line here.
 */
import { benchDeploy } from "./deploy";
import { benchDirectory } from "./directory";
import { benchDiscover } from "./discover";
import { benchExport } from "./export";
import { benchForum } from "./forum";
import { benchHostile } from "./hostile";
import { benchHttp } from "./http";
import { benchLighthouse } from "./lighthouse";
import { benchLive } from "./live";
import { benchLogin } from "./login";
import { benchMessages } from "./messages";
import { benchModeration } from "./moderation";
import { benchPages } from "./pages";
import { benchPlans } from "./plans";
import { benchSendRead } from "./send-read";
import { benchTabs } from "./tabs";

export const SECTIONS: Record<string, () => Promise<number>> = {
  http: benchHttp,
  deploy: benchDeploy,
  login: benchLogin,
  forum: benchForum,
  directory: benchDirectory,
  discover: () => benchDiscover({ overHttp: true }),
  messages: benchMessages,
  "send-read": benchSendRead,
  pages: benchPages,
  plans: benchPlans,
  lighthouse: benchLighthouse,
  live: benchLive,
  tabs: benchTabs,
  hostile: benchHostile,
  moderation: benchModeration,
  export: benchExport,
};
