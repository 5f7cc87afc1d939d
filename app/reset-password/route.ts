// GET /reset-password?token=…: the link a reset mail holds. A working one goes on to its form
// (./new); a used, expired or unknown one answers 410 (docs/accounts.md).
import { resetLinkRequest } from '@/lib/web/sign-in';

export const dynamic = 'force-dynamic';
export const GET = (req: Request) => resetLinkRequest(req);
