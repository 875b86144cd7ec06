"use client";

import { useRouter } from "next/navigation";
import { ItemMenu } from "./ItemMenu";

type Props = { coupleId: string; coupleName: string; viewer: { userId: string; coupleId: string } };

/**
 * On another couple's profile: 'Report' and 'Block {couple name}' in the profile's "More" menu, as on a post, so
 * neither sits beside 'Message' nor shouts from every profile.
 */
export function CoupleSafetyActions({ coupleId, coupleName, viewer }: Props) {
  const router = useRouter();
  return (
    <ItemMenu
      label={`More actions for ${coupleName}`}
      targetType="couple"
      targetId={coupleId}
      // The couple as a whole, not one partner: nothing to edit or delete, only to report or block.
      author={{ userId: null, coupleId, coupleName }}
      viewer={viewer}
      // A blocked couple's profile is not found from now on: to the list that shows the block and undoes it.
      onBlocked={() => router.push("/settings/blocked")}
    />
  );
}
