/* start_arm.S - _start, the raw system call and the signal restorer of
   chain.c on arm32 (see chain.c), in the ARM state whatever the C code's;
   EHABI annotations for .ARM.exidx, and with -DUNWIND_DEBUG_FRAME (for
   builds with -g) CFI in .debug_frame. */
#ifdef UNWIND_DEBUG_FRAME
#define CFI(...) __VA_ARGS__
        CFI(.cfi_sections .debug_frame)
#else
#define CFI(...)
#endif
        .syntax unified
        .text
        .arm
        .globl _start
        .type _start, %function
_start:
        .fnstart
        .cantunwind
        CFI(.cfi_startproc)
        CFI(.cfi_undefined lr)
        ldr r0, =unwind_stack_top
        mov sp, r0
        mov r11, #0
        mov r7, #0
        mov lr, #0
        bl main
        mov r7, #248            /* exit_group(main's value) */
        svc #0
        CFI(.cfi_endproc)
        .fnend
        .size _start, . - _start
        .ltorg

        .globl sc               /* long sc(nr, a, b, c, d) */
        .type sc, %function
sc:
        .fnstart
        CFI(.cfi_startproc)
        push {r7, lr}
        .save {r7, lr}
        CFI(.cfi_def_cfa_offset 8)
        CFI(.cfi_offset lr, -4)
        CFI(.cfi_offset r7, -8)
        mov r7, r0
        mov r0, r1
        mov r1, r2
        mov r2, r3
        ldr r3, [sp, #8]
        svc #0
        pop {r7, pc}
        CFI(.cfi_endproc)
        .fnend
        .size sc, . - sc

        .globl unwind_restorer
        .type unwind_restorer, %function
unwind_restorer:
        .fnstart
        .cantunwind
        mov r7, #173            /* rt_sigreturn */
        svc #0
        .fnend
        .size unwind_restorer, . - unwind_restorer

        .bss
        .balign 16
        .globl unwind_stack, unwind_stack_top
unwind_stack:
        .space 65536
unwind_stack_top:
        .section .note.GNU-stack, "", %progbits
