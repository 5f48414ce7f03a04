"""Pictures drawn in worker processes are the same pictures, and the pool can be switched off."""
import rendering
from rendering.roll import render_dice_row


async def test_a_picture_drawn_in_a_process_is_byte_identical():
    local = await rendering.render_async(render_dice_row, [1, 2, 6], 6, "Roll")
    rendering.use_processes(1)
    try:
        remote = await rendering.render_async(render_dice_row, [1, 2, 6], 6, "Roll")
    finally:
        rendering.shutdown_processes()
    assert remote.png == local.png and remote.alt == local.alt
    assert rendering.picture._pool is None
